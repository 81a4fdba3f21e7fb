// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of rocetune's command line, run on the built binary: every
 * command takes -h/--help and prints its own usage (before, `rocetune apply
 * --help` tried to open a file named --help), `rocetune help COMMAND` gives
 * the same text, unknown options are usage errors; `rocetune show` on a
 * host without RoCE devices (this build host has no RDMA) says what it
 * looked for and found and exits 1; watch's options and exit statuses
 * that need no device; and the bash completion file, sourced by bash,
 * completes commands, options, *.conf profiles and device names.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/tap.h"

static const char *bin(void)
{
	const char *b = getenv("ROCETUNE_BIN");

	return b ? b : "../../tools/rocetune/rocetune";
}

static const char *completion(void)
{
	const char *c = getenv("ROCETUNE_COMPLETION");

	return c ? c : "../../tools/rocetune/rocetune.bash-completion";
}

static char out[65536], err[65536];

static void slurp(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	close(fd);
}

/* Run @argv (NULL-terminated) with stdout and stderr captured; exit code. */
static int run(char *const argv[])
{
	char o[] = "/tmp/rtune-cli-out.XXXXXX", e[] = "/tmp/rtune-cli-err.XXXXXX";
	int fo = mkstemp(o), fe = mkstemp(e), st = 0;
	pid_t pid;

	if (fo < 0 || fe < 0)
		abort();
	unlink(o);
	unlink(e);
	pid = fork();
	if (pid == 0) {
		dup2(fo, 1);
		dup2(fe, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	slurp(fo, out, sizeof(out));
	slurp(fe, err, sizeof(err));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

#define RUN(...) run((char *const[]){ (char *)bin(), __VA_ARGS__, NULL })

static const char *const cmds[] = { "apply", "diff", "check", "show", "watch", "stats", "top", "verify", "params",
				    "help" };
#define NCMDS ((int)(sizeof(cmds) / sizeof(cmds[0])))

static void test_help(void)
{
	static char first[sizeof(out)];
	char head[64];
	int i, rc;

	rc = RUN("--help");
	for (i = 0; i < NCMDS; i++) {
		snprintf(head, sizeof(head), "  rocetune %s ", cmds[i]);
		if (!strstr(out, head))
			break;
	}
	tap_check(rc == 0 && i == NCMDS, "rocetune --help lists every command (rc %d)", rc);
	for (i = 0; i < NCMDS; i++) {
		snprintf(head, sizeof(head), "Usage: rocetune [OPTIONS] %s", cmds[i]);
		rc = RUN((char *)cmds[i], "--help");
		tap_check(rc == 0 && !strncmp(out, head, strlen(head)) && !err[0],
			  "rocetune %s --help: its own usage on stdout, exit 0 (rc %d)%s%.80s",
			  cmds[i], rc, err[0] ? ", stderr: " : "", err);
		snprintf(first, sizeof(first), "%s", out);
		rc = RUN((char *)cmds[i], "-h");
		tap_check(rc == 0 && !strcmp(out, first), "rocetune %s -h: the same", cmds[i]);
		rc = RUN("help", (char *)cmds[i]);
		tap_check(rc == 0 && !strcmp(out, first), "rocetune help %s: the same", cmds[i]);
	}
	rc = RUN("apply", "--dry-run", "--help");
	tap_check(rc == 0 && strstr(out, "Usage: rocetune [OPTIONS] apply") && !err[0],
		  "--help after another option still prints the usage");
	rc = RUN("help", "nosuch");
	tap_check(rc == 64 && strstr(err, "unknown command 'nosuch'"),
		  "rocetune help of an unknown command: usage error 64 (rc %d)", rc);
	rc = RUN("apply", "-x", "p.conf");
	tap_check(rc == 64 && strstr(err, "unknown option '-x'") && strstr(err, "Usage: rocetune [OPTIONS] apply"),
		  "an unknown command option is a usage error with the command's usage (rc %d)", rc);
	rc = RUN("check", "--", "--help");
	tap_check(rc == 1 && strstr(err, "--help: error: cannot open"),
		  "after --, --help is a profile name (rc %d)", rc);
	rc = RUN("params", "extra");
	tap_check(rc == 64, "params takes no argument (rc %d)", rc);
	rc = RUN("verify");
	tap_check(rc == 64 && strstr(err, "give --peer HOST or --listen") &&
		  strstr(err, "Usage: rocetune [OPTIONS] verify"),
		  "verify without --peer or --listen: usage error 64 (rc %d)", rc);
	rc = RUN("verify", "--peer", "198.18.0.2", "--listen");
	tap_check(rc == 64, "verify with both --peer and --listen: usage error 64 (rc %d)", rc);
	rc = RUN("verify", "--timeout", "0", "--listen");
	tap_check(rc == 64 && strstr(err, "--timeout"), "verify --timeout 0: usage error naming it (rc %d)", rc);
	rc = RUN("verify", "--peer", "198.18.0.2", "--probe-count", "257");
	tap_check(rc == 64 && strstr(err, "--probe-count: '257' is not a number from 1 to 256"),
		  "verify --probe-count 257: usage error naming it and its range (rc %d)", rc);
	rc = RUN("verify", "--peer", "198.18.0.2", "--probe-size", "0");
	tap_check(rc == 64 && strstr(err, "--probe-size"), "verify --probe-size 0: usage error (rc %d)", rc);
	rc = RUN("verify", "--listen", "--key", "/nonexistent/verify.key");
	tap_check(rc == 4 && strstr(out, "NOT RUN") && strstr(out, "/nonexistent/verify.key"),
		  "verify with a missing key file: could not run, exit 4, says which file (rc %d)", rc);
	rc = RUN("watch", "--once");
	tap_check(rc == 64 && strstr(err, "Usage: rocetune [OPTIONS] watch"),
		  "watch needs a profile: usage error 64 (rc %d)", rc);
	rc = RUN("watch", "--interval", "0", "p.conf");
	tap_check(rc == 64 && strstr(err, "--interval: '0' is not a number of seconds"),
		  "watch --interval 0 is a usage error naming the option (rc %d)", rc);
	rc = RUN("watch", "--max-repairs");
	tap_check(rc == 64 && strstr(err, "--max-repairs needs a value"),
		  "watch --max-repairs without a value: usage error (rc %d)", rc);
	rc = RUN("stats", "--interval", "x");
	tap_check(rc == 64 && strstr(err, "--interval: 'x' is not a number of seconds") &&
		  strstr(err, "Usage: rocetune [OPTIONS] stats"),
		  "stats --interval x: usage error naming the option (rc %d)", rc);
	rc = RUN("top", "--interval", "0");
	tap_check(rc == 64 && strstr(err, "--interval: '0'"),
		  "top --interval 0 is a usage error (stats allows 0) (rc %d)", rc);
	rc = RUN("top", "--sort", "loudest");
	tap_check(rc == 64 && strstr(err, "--sort: 'loudest' is not pause, busy or name"),
		  "top --sort of an unknown key: usage error (rc %d)", rc);
	rc = RUN("top", "--iterations", "0");
	tap_check(rc == 64 && strstr(err, "--iterations: '0' is not a count"),
		  "top --iterations 0: usage error (rc %d)", rc);
	rc = RUN("stats", "eth0");
	tap_check(rc == 64, "stats takes devices only after 'dev' (rc %d)", rc);
	rc = RUN("-j", "stats", "--prometheus");
	tap_check(rc == 64 && strstr(err, "exclude each other"),
		  "stats: -j and --prometheus together: usage error (rc %d)", rc);
	rc = RUN("stats", "--bind-qp-counters", "--unbind-qp-counters");
	tap_check(rc == 64 && strstr(err, "exclude each other"),
		  "stats: --bind-qp-counters and --unbind-qp-counters together: usage error (rc %d)", rc);
	rc = RUN("stats", "--interval", "0", "dev", "rtune-no-such-dev");
	tap_check(rc == 1 && strstr(err, "no netdev or RDMA device named 'rtune-no-such-dev'"),
		  "stats dev of a missing device: exit 1, says which (rc %d)", rc);
	rc = RUN("-j", "stats", "--interval", "0", "dev", "lo");
	tap_check(rc == 0 && strstr(out, "\"command\":\"stats\"") && strstr(out, "\"netdev\":\"lo\"") &&
		  strstr(out, "\"pfc\":null") && strstr(out, "\"rate\":null"),
		  "stats -j of lo: no PFC is null, one sample has null rates (rc %d)", rc);
	rc = RUN("top", "--iterations", "2", "--interval", "0.05", "dev", "lo");
	tap_check(rc == 0 && strstr(out, "rocetune top: 1 port") &&
		  strstr(strstr(out, "rocetune top: 1 port") + 1, "rocetune top: 1 port") &&
		  strstr(out, "\nlo "),
		  "top --iterations 2 without a terminal: two plain frames, then exit 0 (rc %d)", rc);
	rc = RUN("watch", "--once", "nosuch-dir/p.conf");
	tap_check(rc == 2 && strstr(err, "cannot open") && !out[0],
		  "watch --once of a missing profile: exit 2, says why (rc %d)", rc);
	{
		char prof[] = "/tmp/rtune-cli-watch.XXXXXX";
		int fd = mkstemp(prof);
		static const char text[] = "[match]\nnetdev = rtune-no-such-*\n[link]\nmtu = 4200\n";

		if (fd < 0 || write(fd, text, sizeof(text) - 1) != (ssize_t)sizeof(text) - 1)
			abort();
		close(fd);
		rc = RUN("-j", "watch", "--once", prof);
		tap_check(rc == 0 && !out[0],
			  "watch --once of a profile matching no device here: exit 0, no output (rc %d)%s%.80s",
			  rc, out[0] ? ", stdout: " : "", out);
		unlink(prof);
	}
}

static bool has_rdma(void)
{
	DIR *d = opendir("/sys/class/infiniband");
	struct dirent *de;
	bool any = false;

	while (d && (de = readdir(d)))
		any |= de->d_name[0] != '.';
	if (d)
		closedir(d);
	return any;
}

static void test_show_nothing(void)
{
	DIR *d;
	struct dirent *de;
	int rc, missing = 0, n = 0;

	if (has_rdma()) {
		tap_skip("this host has RDMA devices", "show on a host without RoCE devices");
		return;
	}
	rc = RUN("show");
	if (rc == 0 && out[0]) {
		tap_skip("a netdev of this host has DCB", "show on a host without RoCE devices");
		return;
	}
	d = opendir("/sys/class/net");
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' && strcmp(de->d_name, "lo") && n++ < 8)
			missing += !strstr(err, de->d_name);
	if (d)
		closedir(d);
	tap_check(rc == 1 && !out[0] && strstr(err, "no RoCE device on this host") &&
		  strstr(err, "DCB") && strstr(err, "RDMA") && !missing,
		  "show without RoCE devices: exit 1, says it looked for DCB and RDMA and names the %d netdevs it found: %.*s",
		  n, (int)strcspn(err, "\n"), err);
	rc = RUN("--json", "show");
	tap_check(rc == 1 && strstr(out, "\"code\":\"no-device\"") &&
		  strstr(out, "\"exit_code\":1") && strstr(out, "\"state\":[]"),
		  "show --json without RoCE devices: a no-device error, exit_code 1 (rc %d)", rc);
	rc = RUN("show", "dev", "nosuchdev0");
	tap_check(rc == 1 && strstr(err, "'nosuchdev0'"), "show dev of a missing device names it, exit 1 (rc %d)", rc);
}

/* Complete the words of @line (the last one is completed); the candidates
 * sorted, one per line, in out[]. */
static int complete(const char *env, const char *line)
{
	char script[2048], *abs = realpath(completion(), NULL);

	if (!abs)
		return -1;
	snprintf(script, sizeof(script),
		 "%s; source '%s' || exit 9; read -ra COMP_WORDS <<< \"$1\"; "
		 "[[ $1 == *' ' ]] && COMP_WORDS+=(''); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
		 "_rocetune; ((${#COMPREPLY[@]} == 0)) || printf '%%s\\n' \"${COMPREPLY[@]}\" | sort",
		 env, abs);
	free(abs);
	return run((char *const[]){ "/bin/bash", "--norc", "-c", script, "bash", (char *)line, NULL });
}

/* out[] on one line, for a test description. */
static const char *flat(void)
{
	static char f[sizeof(out)];
	char *c;

	snprintf(f, sizeof(f), "%s", out);
	for (c = f; (c = strchr(c, '\n'));)
		*c = ' ';
	return f;
}

static void test_completion(void)
{
	char dir[] = "/tmp/rtune-comp.XXXXXX", env[600], path[700];
	const char *mk[] = { "a.conf", "b.txt", "sub/", "class/net/dcb0/", "class/net/eth9/",
			     "class/infiniband/rxe0/" };
	unsigned int i;
	int rc;

	if (access("/bin/bash", X_OK) || access(completion(), R_OK)) {
		tap_skip("no /bin/bash or completion file", "bash completion");
		return;
	}
	if (!mkdtemp(dir))
		abort();
	for (i = 0; i < sizeof(mk) / sizeof(mk[0]); i++) {
		char *s;

		snprintf(path, sizeof(path), "%s/%s", dir, mk[i]);
		if (path[strlen(path) - 1] == '/') {
			for (s = path + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
				*s = '\0';
				mkdir(path, 0755);
				*s = '/';
			}
		} else {
			close(open(path, O_CREAT | O_WRONLY, 0644));
		}
	}
	snprintf(env, sizeof(env), "cd '%s' && export ROCETUNE_SYSFS='%s'", dir, dir);

	rc = complete(env, "rocetune ");
	tap_check(rc == 0 && !strcmp(out, "apply\ncheck\ndiff\ndoctor\nhelp\nparams\nshow\nstats\ntop\nverify\nwatch\n"),
		  "completes every command: %s", flat());
	rc = complete(env, "rocetune -");
	tap_check(rc == 0 && strstr(out, "--json\n") && strstr(out, "--force\n") &&
		  strstr(out, "--lock-timeout\n") && strstr(out, "--help\n") && !strstr(out, "--dry-run"),
		  "completes the global options");
	rc = complete(env, "rocetune -j --lock-timeout 5 di");
	tap_check(rc == 0 && !strcmp(out, "diff\n"), "skips global options and their value: %s", flat());
	rc = complete(env, "rocetune apply --");
	tap_check(rc == 0 && !strcmp(out, "--dry-run\n--help\n"), "apply's own options: %s", flat());
	rc = complete(env, "rocetune diff --");
	tap_check(rc == 0 && !strcmp(out, "--help\n"), "diff has only --help: %s", flat());
	rc = complete(env, "rocetune apply ");
	tap_check(rc == 0 && !strcmp(out, "a.conf\nclass\nsub\n"),
		  "profiles: *.conf files and directories, not other files: %s", flat());
	rc = complete(env, "rocetune apply a.conf ");
	tap_check(rc == 0 && !out[0], "nothing after the profile: %s", flat());
	rc = complete(env, "rocetune show ");
	tap_check(rc == 0 && !strcmp(out, "a.conf\nclass\ndev\nsub\n"), "show: dev or a profile: %s", flat());
	rc = complete(env, "rocetune show dev ");
	tap_check(rc == 0 && !strcmp(out, "dcb0\neth9\nrxe0\n"),
		  "show dev: the netdevs and RDMA devices: %s", flat());
	rc = complete(env, "rocetune watch --");
	tap_check(rc == 0 && !strcmp(out, "--help\n--interval\n--max-repairs\n--once\n--repair\n"
				    "--repair-backoff-max\n--repair-interval\n"),
		  "watch's own options: %s", flat());
	rc = complete(env, "rocetune watch --interval ");
	tap_check(rc == 0 && !out[0], "nothing for watch's option values: %s", flat());
	rc = complete(env, "rocetune watch --once a.conf --interval 2 ");
	tap_check(rc == 0 && !strcmp(out, "a.conf\nclass\nsub\n"),
		  "watch takes more profiles after a profile and a valued option: %s", flat());
	rc = complete(env, "rocetune top --");
	tap_check(rc == 0 && !strcmp(out, "--help\n--interval\n--iterations\n--sort\n"),
		  "top's own options: %s", flat());
	rc = complete(env, "rocetune top --sort ");
	tap_check(rc == 0 && !strcmp(out, "busy\nname\npause\n"), "top --sort: the keys: %s", flat());
	rc = complete(env, "rocetune stats --prometheus out.prom dev ");
	tap_check(rc == 0 && !strcmp(out, "dcb0\neth9\nrxe0\n"),
		  "stats --prometheus FILE dev: the devices: %s", flat());
	rc = complete(env, "rocetune stats ");
	tap_check(rc == 0 && !strcmp(out, "dev\n"), "stats: dev, no profile: %s", flat());
	rc = complete(env, "rocetune doctor --");
	tap_check(rc == 0 && !strcmp(out, "--error-threshold\n--help\n--interval\n--pause-threshold\n"),
		  "doctor's own options: %s", flat());
	rc = complete(env, "rocetune doctor --pause-threshold 500 ");
	tap_check(rc == 0 && !strcmp(out, "a.conf\nclass\ndev\nsub\n"),
		  "doctor after a valued option: dev or a profile: %s", flat());
	rc = complete(env, "rocetune doctor dev ");
	tap_check(rc == 0 && !strcmp(out, "dcb0\neth9\nrxe0\n"), "doctor dev: the devices: %s", flat());
	rc = complete(env, "rocetune verify --");
	tap_check(rc == 0 && !strcmp(out, "--bind\n--dev\n--forever\n--help\n--key\n--listen\n"
				    "--peer\n--port\n--probe\n--probe-cnp\n--probe-count\n--probe-size\n"
				    "--timeout\n"),
		  "verify's own options: %s", flat());
	rc = complete(env, "rocetune verify --dev ");
	tap_check(rc == 0 && !strcmp(out, "dcb0\neth9\nrxe0\n"),
		  "verify --dev: the netdevs and RDMA devices: %s", flat());
	rc = complete(env, "rocetune verify --peer ");
	tap_check(rc == 0 && !out[0], "nothing for verify --peer's host: %s", flat());
	rc = complete(env, "rocetune verify --probe-count ");
	tap_check(rc == 0 && !out[0], "nothing for verify --probe-count's number: %s", flat());
	rc = complete(env, "rocetune help p");
	tap_check(rc == 0 && !strcmp(out, "params\n"), "help completes commands: %s", flat());

	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		tap_diag("could not remove %s", dir);
}

int main(void)
{
	if (access(bin(), X_OK)) {
		printf("TAP version 13\n1..0 # SKIP %s not built (make -C tools/rocetune)\n", bin());
		return 4;
	}
	test_help();
	test_show_nothing();
	test_completion();
	return tap_done();
}
