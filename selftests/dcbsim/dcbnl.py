#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Raw dcbnl (RTM_GETDCB/RTM_SETDCB) client for the dcbsim selftests.

The tests need what iproute2's `dcb` cannot give them:
  * inputs `dcb` refuses in userspace (e.g. ETS bandwidths summing to 90),
    so that the kernel's own checks are what gets tested;
  * the driver's errno for a failed set, read from the DCB_ATTR_IEEE status
    byte (iproute2 6.1 does not always report it);
  * APP trust and the rewrite table, which iproute2 6.1 does not know.

Usage:
  dcbnl.py show DEV                      everything IEEE_GET returns, as JSON
  dcbnl.py get DEV OBJ.FIELD             one field; lists space-separated
  dcbnl.py set DEV OBJ FIELD=V[,V...]... read OBJ, change FIELDs, write OBJ
                                         (OBJ: ets pfc maxrate buffer)
  dcbnl.py app-add DEV SEL:PROTO:PRIO... add APP entries, in one message
  dcbnl.py app-del DEV SEL:PROTO:PRIO... delete APP entries
  dcbnl.py dcbx DEV MODE                 DCB_CMD_SDCBX (MODE: number)
  dcbnl.py apptrust DEV [SEL...]         set the APP trust order
  dcbnl.py rewr-add DEV SEL:PRIO:VAL...  add rewrite entries (priority PRIO
                                         rewritten to PCP or DSCP VAL)
  dcbnl.py rewr-del DEV SEL:PRIO:VAL...  delete rewrite entries
  (show: "rewr" is the rewrite table as [SEL, PRIO, VAL] sorted, absent
  when the kernel has none, Linux < 6.3)

Exit status 0 on success. On failure, the first line on stderr is
"dcbnl: ERRNAME: message" (ERRNAME is e.g. EINVAL, or REFUSED for a DCBX set
the driver turned down, which carries no errno), and the status is 1.
Usage errors exit with 2.
"""

import errno
import json
import os
import socket
import struct
import sys

NETLINK_ROUTE = 0
NLMSG_ERROR = 2
NLM_F_REQUEST = 0x1
NLM_F_ACK = 0x4
NLA_F_NESTED = 0x8000
NLA_TYPE_MASK = 0x3FFF

RTM_GETDCB = 78
RTM_SETDCB = 79

DCB_CMD_SDCBX = 23
DCB_CMD_IEEE_SET = 20
DCB_CMD_IEEE_GET = 21
DCB_CMD_IEEE_DEL = 27

DCB_ATTR_IFNAME = 1
DCB_ATTR_IEEE = 13
DCB_ATTR_DCBX = 14

DCB_ATTR_IEEE_ETS = 1
DCB_ATTR_IEEE_PFC = 2
DCB_ATTR_IEEE_APP_TABLE = 3
DCB_ATTR_IEEE_MAXRATE = 7
DCB_ATTR_DCB_BUFFER = 10
DCB_ATTR_DCB_APP_TRUST_TABLE = 11
DCB_ATTR_DCB_REWR_TABLE = 12

DCB_ATTR_IEEE_APP = 1
DCB_ATTR_DCB_APP = 2		# PCP entries, Linux 6.2+
DCB_APP_SEL_PCP = 255

N = 8	# TCs, priorities, buffers

# name: (attribute, struct format, field list). A field list entry is
# (name, count): count 1 is a scalar, 8 an array.
OBJECTS = {
	"ets": (DCB_ATTR_IEEE_ETS, "=3B56B", [
		("willing", 1), ("ets_cap", 1), ("cbs", 1),
		("tc_tx_bw", N), ("tc_rx_bw", N), ("tc_tsa", N), ("prio_tc", N),
		("tc_reco_bw", N), ("tc_reco_tsa", N), ("reco_prio_tc", N)]),
	"pfc": (DCB_ATTR_IEEE_PFC, "=BBBxH2x8Q8Q", [
		("pfc_cap", 1), ("pfc_en", 1), ("mbc", 1), ("delay", 1),
		("requests", N), ("indications", N)]),
	"maxrate": (DCB_ATTR_IEEE_MAXRATE, "=8Q", [("tc_maxrate", N)]),
	"buffer": (DCB_ATTR_DCB_BUFFER, "=8B8II", [
		("prio2buffer", N), ("buffer_size", N), ("total_size", 1)]),
}
ATTR_OBJECT = {attr: name for name, (attr, _, _) in OBJECTS.items()}

SELECTORS = {"ethtype": 1, "stream": 2, "dgram": 3, "any": 4, "dscp": 5,
	     "pcp": DCB_APP_SEL_PCP}


class DcbError(Exception):
	def __init__(self, name, msg):
		super().__init__(msg)
		self.name = name


def errno_error(err, what):
	name = errno.errorcode.get(err, "E%d" % err)
	return DcbError(name, "%s: %s" % (what, os.strerror(err)))


def nla(atype, payload):
	hdr = struct.pack("=HH", 4 + len(payload), atype)
	return hdr + payload + b"\0" * (-len(payload) % 4)


def parse_attrs(data):
	"""Yield (type, payload) for the attributes in data."""
	off = 0
	while off + 4 <= len(data):
		alen, atype = struct.unpack_from("=HH", data, off)
		if alen < 4:
			break
		yield atype & NLA_TYPE_MASK, data[off + 4:off + alen]
		off += (alen + 3) & ~3


def unpack(name, payload):
	_, fmt, fields = OBJECTS[name]
	if len(payload) != struct.calcsize(fmt):
		raise DcbError("EPROTO", "%s: %d bytes, expected %d" %
			       (name, len(payload), struct.calcsize(fmt)))
	vals = list(struct.unpack(fmt, payload))
	obj = {}
	for field, count in fields:
		obj[field] = vals[0] if count == 1 else vals[:count]
		del vals[:count]
	return obj


def pack(name, obj):
	_, fmt, fields = OBJECTS[name]
	vals = []
	for field, count in fields:
		vals += [obj[field]] if count == 1 else obj[field]
	return struct.pack(fmt, *vals)


class Dcbnl:
	def __init__(self, dev):
		self.dev = dev
		self.seq = 0
		self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
					  NETLINK_ROUTE)
		self.sock.bind((0, 0))

	def talk(self, msgtype, cmd, attrs):
		"""Send one request; return the attributes of its reply."""
		self.seq += 1
		body = struct.pack("=BBH", 0, cmd, 0)
		body += nla(DCB_ATTR_IFNAME, self.dev.encode() + b"\0") + attrs
		hdr = struct.pack("=IHHII", 16 + len(body), msgtype,
				  NLM_F_REQUEST | NLM_F_ACK, self.seq, 0)
		self.sock.send(hdr + body)
		reply = None
		while True:
			data = self.sock.recv(65536)
			off = 0
			while off + 16 <= len(data):
				mlen, mtype, _, seq, _ = struct.unpack_from("=IHHII", data, off)
				msg = data[off + 16:off + mlen]
				off += (mlen + 3) & ~3
				if seq != self.seq:
					continue
				if mtype == NLMSG_ERROR:
					err = -struct.unpack_from("=i", msg)[0]
					if err:
						raise errno_error(err, "netlink")
					return reply if reply is not None else []
				reply = list(parse_attrs(msg[4:]))

	def show(self):
		state = {"app": []}
		for atype, payload in self.talk(RTM_GETDCB, DCB_CMD_IEEE_GET, b""):
			if atype == DCB_ATTR_DCBX:
				state["dcbx"] = payload[0]
			if atype != DCB_ATTR_IEEE:
				continue
			for itype, ipayload in parse_attrs(payload):
				if itype in ATTR_OBJECT:
					state[ATTR_OBJECT[itype]] = unpack(ATTR_OBJECT[itype], ipayload)
				elif itype == DCB_ATTR_IEEE_APP_TABLE:
					for _, app in parse_attrs(ipayload):
						sel, prio, proto = struct.unpack("=BBH", app)
						state["app"].append([sel, proto, prio])
				elif itype == DCB_ATTR_DCB_APP_TRUST_TABLE:
					state["apptrust"] = [p[0] for _, p in parse_attrs(ipayload)]
				elif itype == DCB_ATTR_DCB_REWR_TABLE:
					rewr = []
					for _, app in parse_attrs(ipayload):
						sel, prio, proto = struct.unpack("=BBH", app)
						rewr.append([sel, prio, proto])
					state["rewr"] = sorted(rewr)
		return state

	def ieee_cmd(self, cmd, inner):
		"""IEEE_SET/IEEE_DEL; the driver's status comes back in DCB_ATTR_IEEE."""
		attrs = nla(DCB_ATTR_IEEE | NLA_F_NESTED, inner)
		for atype, payload in self.talk(RTM_SETDCB, cmd, attrs):
			if atype == DCB_ATTR_IEEE and len(payload) == 1:
				status = struct.unpack("=b", payload)[0]
				if status:
					raise errno_error(-status, "set")
				return
		raise DcbError("EPROTO", "no status in the reply")

	def set_object(self, name, changes):
		state = self.show()
		if name not in state:
			raise DcbError("EOPNOTSUPP", "%s: not reported by the device" % name)
		obj = state[name]
		for field, value in changes.items():
			if field not in obj:
				raise DcbError("EUSAGE", "%s has no field %s" % (name, field))
			obj[field] = value
		self.ieee_cmd(DCB_CMD_IEEE_SET, nla(OBJECTS[name][0], pack(name, obj)))

	def app(self, cmd, entries):
		inner = b""
		for sel, proto, prio in entries:
			atype = DCB_ATTR_DCB_APP if sel == DCB_APP_SEL_PCP else DCB_ATTR_IEEE_APP
			inner += nla(atype, struct.pack("=BBH", sel, prio, proto))
		self.ieee_cmd(cmd, nla(DCB_ATTR_IEEE_APP_TABLE | NLA_F_NESTED, inner))

	def rewr(self, cmd, entries):
		inner = b""
		for sel, prio, proto in entries:
			atype = DCB_ATTR_DCB_APP if sel == DCB_APP_SEL_PCP else DCB_ATTR_IEEE_APP
			inner += nla(atype, struct.pack("=BBH", sel, prio, proto))
		self.ieee_cmd(cmd, nla(DCB_ATTR_DCB_REWR_TABLE | NLA_F_NESTED, inner))

	def apptrust(self, selectors):
		inner = b""
		for sel in selectors:
			atype = DCB_ATTR_DCB_APP if sel == DCB_APP_SEL_PCP else DCB_ATTR_IEEE_APP
			inner += nla(atype, struct.pack("=B", sel))
		self.ieee_cmd(DCB_CMD_IEEE_SET,
			      nla(DCB_ATTR_DCB_APP_TRUST_TABLE | NLA_F_NESTED, inner))

	def dcbx(self, mode):
		for atype, payload in self.talk(RTM_SETDCB, DCB_CMD_SDCBX,
						nla(DCB_ATTR_DCBX, struct.pack("=B", mode))):
			if atype == DCB_ATTR_DCBX:
				if payload[0]:
					raise DcbError("REFUSED", "DCBX mode %#x refused (status %d)" %
						       (mode, payload[0]))
				return
		raise DcbError("EPROTO", "no status in the reply")


def number(text):
	return int(text, 0)


def selector(text):
	return SELECTORS[text] if text in SELECTORS else number(text)


def app_entries(args):
	entries = []
	for arg in args:
		sel, proto, prio = arg.split(":")
		entries.append((selector(sel), number(proto), number(prio)))
	return entries


def usage():
	sys.stderr.write(__doc__.split("Usage:", 1)[1].split("Exit status", 1)[0])
	sys.exit(2)


def main(argv):
	if len(argv) < 3:
		usage()
	op, dev, args = argv[1], argv[2], argv[3:]
	nl = Dcbnl(dev)
	if op == "show" and not args:
		print(json.dumps(nl.show(), sort_keys=True))
	elif op == "get" and len(args) == 1:
		value = nl.show()
		for key in args[0].split("."):
			if not isinstance(value, dict) or key not in value:
				raise DcbError("ENOENT", "no %s in the reply" % args[0])
			value = value[key]
		if isinstance(value, list):
			print(" ".join(json.dumps(v) if isinstance(v, list) else str(v)
				       for v in value))
		else:
			print(value)
	elif op == "set" and len(args) >= 2 and args[0] in OBJECTS:
		changes = {}
		for arg in args[1:]:
			field, _, text = arg.partition("=")
			vals = [number(v) for v in text.split(",")]
			changes[field] = vals[0] if len(vals) == 1 else vals
		nl.set_object(args[0], changes)
	elif op in ("app-add", "app-del") and args:
		cmd = DCB_CMD_IEEE_SET if op == "app-add" else DCB_CMD_IEEE_DEL
		nl.app(cmd, app_entries(args))
	elif op in ("rewr-add", "rewr-del") and args:
		cmd = DCB_CMD_IEEE_SET if op == "rewr-add" else DCB_CMD_IEEE_DEL
		# SEL:PRIO:VAL parses like SEL:PROTO:PRIO; only the order differs
		nl.rewr(cmd, [(s, a, b) for s, a, b in app_entries(args)])
	elif op == "dcbx" and len(args) == 1:
		nl.dcbx(number(args[0]))
	elif op == "apptrust":
		nl.apptrust([selector(a) for a in args])
	else:
		usage()
	return 0


if __name__ == "__main__":
	try:
		sys.exit(main(sys.argv))
	except DcbError as e:
		sys.stderr.write("dcbnl: %s: %s\n" % (e.name, e))
		sys.exit(2 if e.name == "EUSAGE" else 1)
	except (ValueError, KeyError) as e:
		sys.stderr.write("dcbnl: EUSAGE: bad argument: %s\n" % e)
		sys.exit(2)
