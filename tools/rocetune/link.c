// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <sys/socket.h>
#include <netlink/cache.h>
#include <netlink/route/link.h>
#include "link.h"
#include "state.h"

static int nlerr(int e)
{
	switch (-e) {
	case NLE_PERM: return -EPERM;
	case NLE_OBJ_NOTFOUND:
	case NLE_NODEV: return -ENODEV;
	case NLE_INVAL:
	case NLE_RANGE: return -EINVAL;
	case NLE_NOMEM: return -ENOMEM;
	case NLE_OPNOTSUPP: return -EOPNOTSUPP;
	case NLE_BUSY: return -EBUSY;
	default: return -EIO;
	}
}

int link_foreach(struct nl_sock *sk, link_fn fn, void *arg)
{
	struct nl_cache *cache;
	struct nl_object *o;
	int err = rtnl_link_alloc_cache(sk, AF_UNSPEC, &cache);

	if (err < 0)
		return nlerr(err);
	for (o = nl_cache_get_first(cache); o; o = nl_cache_get_next(o)) {
		struct rtnl_link *l = (struct rtnl_link *)o;
		const char *name = rtnl_link_get_name(l);

		if (name)
			fn(name, rtnl_link_get_ifindex(l), rtnl_link_get_mtu(l), arg);
	}
	nl_cache_free(cache);
	return 0;
}

int link_get_mtu(struct nl_sock *sk, const char *name, int *ifindex, uint32_t *mtu)
{
	struct rtnl_link *l;
	int err = rtnl_link_get_kernel(sk, 0, name, &l);

	if (err < 0)
		return nlerr(err);
	*mtu = rtnl_link_get_mtu(l);
	if (ifindex)
		*ifindex = rtnl_link_get_ifindex(l);
	rtnl_link_put(l);
	return 0;
}

int link_set_mtu(struct nl_sock *sk, const char *name, uint32_t mtu)
{
	struct rtnl_link *orig, *chg;
	int err = rtnl_link_get_kernel(sk, 0, name, &orig);

	if (err < 0)
		return nlerr(err);
	chg = rtnl_link_alloc();
	if (!chg) {
		rtnl_link_put(orig);
		return -ENOMEM;
	}
	rtnl_link_set_mtu(chg, mtu);
	rtune_writes++;
	err = rtnl_link_change(sk, orig, chg, 0);
	rtnl_link_put(chg);
	rtnl_link_put(orig);
	return err < 0 ? nlerr(err) : 0;
}
