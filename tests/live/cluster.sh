# SPDX-License-Identifier: MIT
# A private Slurm cluster (22.05 on the host, 24.11 in chroot.sh's root) on loopback for the live test: munged,
# MariaDB, slurmdbd, slurmctld and several `slurmd -N` processes, all with
# their state, sockets and logs under one temporary folder, and every daemon
# stopped by its PID at the end (live_stop, also on failure via a trap).
# Source this file from bash; it defines functions only.
#
# Needs root (daemons as root, test users created with useradd) and the
# Debian packages slurmctld slurmd slurmdbd slurm-client munge
# mariadb-server (live_install installs them when missing).

LIVE_PKGS="slurmctld slurmd slurmdbd slurm-client munge mariadb-server"

live_log() { echo "live: $*" >&2; }
live_die() { echo "live: FATAL: $*" >&2; exit 1; }

# Install the packages if a command is missing; never starts services.
live_install() {
	local missing=0 c
	for c in slurmctld slurmd slurmdbd sbatch sprio munged mariadbd; do
		command -v "$c" >/dev/null 2>&1 || [ -x "/usr/sbin/$c" ] || missing=1
	done
	[ $missing = 0 ] && return 0
	[ "$(id -u)" = 0 ] || live_die "Slurm is not installed and we are not root"
	live_log "installing $LIVE_PKGS"
	# keep the packages' scripts from starting daemons
	printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
	chmod +x /usr/sbin/policy-rc.d
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq $LIVE_PKGS >/dev/null 2>&1
	local rc=$?
	rm -f /usr/sbin/policy-rc.d
	[ $rc = 0 ] || { apt-get update -qq >/dev/null 2>&1 &&
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq $LIVE_PKGS >/dev/null; } ||
		live_die "apt-get install $LIVE_PKGS failed"
}

# wait_for SECONDS DESCRIPTION COMMAND...: poll once a second.
live_wait() {
	local secs=$1 what=$2 i
	shift 2
	for i in $(seq "$secs"); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 1
	done
	live_die "timed out after ${secs}s waiting for $what"
}

# live_start BASE NODES CPUS MEM PORTBASE: everything up, nodes idle.
# Writes $BASE/etc/slurm.conf from the common part plus $BASE/scenario.conf
# (priority weights, flags, partitions; @NODES@ stands for the node list).
live_start() {
	LIVE_BASE=$1 LIVE_NODES=$2 LIVE_CPUS=$3 LIVE_MEM=$4 LIVE_PORT=$5
	local b=$LIVE_BASE host i
	host=$(hostname)
	mkdir -p "$b/etc" "$b/run" "$b/log" "$b/state" "$b/spool" "$b/db" "$b/munge/s"
	chmod 711 "$b" "$b/munge"
	export SLURM_CONF=$b/etc/slurm.conf

	# munged: its own key and socket (it insists on strict permissions)
	mungekey -c -k "$b/munge/munge.key" >/dev/null 2>&1 || live_die "mungekey failed"
	chown -R munge:munge "$b/munge"
	chmod 700 "$b/munge/munge.key" 2>/dev/null
	chmod 755 "$b/munge/s"
	su -s /bin/sh munge -c "munged --socket=$b/munge/s/munge.sock \
		--key-file=$b/munge/munge.key --pid-file=$b/munge/munged.pid \
		--log-file=$b/munge/munged.log --seed-file=$b/munge/munged.seed" ||
		live_die "munged did not start: $(tail -1 "$b/munge/munged.log" 2>/dev/null)"
	cp "$b/munge/munged.pid" "$b/run/munged.pid"

	# MariaDB on loopback, its own data folder and port
	mariadb-install-db --datadir="$b/db" --user=root \
		--auth-root-authentication-method=normal --skip-test-db \
		>"$b/log/mariadb-install.log" 2>&1 || live_die "mariadb-install-db failed"
	mariadbd --datadir="$b/db" --socket="$b/run/mysql.sock" --port=$((LIVE_PORT + 6)) \
		--bind-address=127.0.0.1 --user=root --pid-file="$b/run/mariadbd.pid" \
		--log-error="$b/log/mariadb.log" --innodb-buffer-pool-size=64M \
		--skip-name-resolve >/dev/null 2>&1 &
	live_wait 60 "MariaDB" mariadb-admin --socket="$b/run/mysql.sock" ping
	mariadb --socket="$b/run/mysql.sock" -e "
		CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'slurmpw';
		GRANT ALL ON *.* TO 'slurm'@'127.0.0.1'; FLUSH PRIVILEGES;" ||
		live_die "cannot create the database user"

	cat >"$b/etc/slurmdbd.conf" <<EOF
AuthType=auth/munge
AuthInfo=socket=$b/munge/s/munge.sock
DbdHost=$host
DbdAddr=127.0.0.1
DbdPort=$((LIVE_PORT + 9))
SlurmUser=root
DebugLevel=info
LogFile=$b/log/slurmdbd.log
PidFile=$b/run/slurmdbd.pid
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$((LIVE_PORT + 6))
StorageUser=slurm
StoragePass=slurmpw
StorageLoc=slurm_live
EOF
	chmod 600 "$b/etc/slurmdbd.conf"

	{
		cat <<EOF
# written by tests/live/cluster.sh
ClusterName=live
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$((LIVE_PORT + 7))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$b/munge/s/munge.sock
StateSaveLocation=$b/state
SlurmdSpoolDir=$b/spool/%n
SlurmctldPidFile=$b/run/slurmctld.pid
SlurmdPidFile=$b/run/slurmd-%n.pid
SlurmctldLogFile=$b/log/slurmctld.log
SlurmdLogFile=$b/log/slurmd-%n.log
SlurmctldDebug=debug
SlurmdDebug=info
DebugFlags=Priority,NO_CONF_HASH
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$((LIVE_PORT + 9))
AccountingStoragePass=$b/munge/s/munge.sock
AccountingStorageEnforce=associations,limits,qos
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=5,sched_interval=5
SlurmdParameters=config_overrides
ReturnToService=2
SlurmdTimeout=300
InactiveLimit=0
KillWait=5
MinJobAge=3600
DefMemPerCPU=1000
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
EOF
		for i in $(seq "$LIVE_NODES"); do
			echo "NodeName=lvn$i NodeHostname=$host NodeAddr=127.0.0.1 Port=$((LIVE_PORT + 10 + i)) CPUs=$LIVE_CPUS Boards=1 SocketsPerBoard=1 CoresPerSocket=$LIVE_CPUS ThreadsPerCore=1 RealMemory=$LIVE_MEM State=UNKNOWN"
		done
		sed "s/@NODES@/lvn[1-$LIVE_NODES]/g" "$b/scenario.conf"
	} >"$SLURM_CONF"
	# Since 24.05 slurmd starts a cgroup plugin even with proctrack/linuxproc
	# and stops when /sys/fs/cgroup is not what it expects (a chroot, a
	# container); this test needs no cgroups, and 24.05 can say so.
	case $(dpkg-query -W -f '${Version}' slurmd 2>/dev/null) in
	2[0-3].* | 24.0[1-4].*) ;;
	*) echo "CgroupPlugin=disabled" >"$b/etc/cgroup.conf" ;;
	esac

	# LIVE_DBD_LIBS: another MariaDB client library for slurmdbd (chroot.sh)
	LD_LIBRARY_PATH=${LIVE_DBD_LIBS:-} /usr/sbin/slurmdbd || live_die "slurmdbd did not start"
	live_wait 60 "slurmdbd" grep -q 'started' "$b/log/slurmdbd.log"
	live_wait 30 "the cluster record" sacctmgr -i add cluster live
	/usr/sbin/slurmctld -f "$SLURM_CONF" || live_die "slurmctld did not start"
	live_wait 30 "slurmctld" scontrol ping
	for i in $(seq "$LIVE_NODES"); do
		mkdir -p "$b/spool/lvn$i"
		/usr/sbin/slurmd -N "lvn$i" -f "$SLURM_CONF" || live_die "slurmd lvn$i did not start"
	done
	live_wait 60 "idle nodes" sh -c "[ \$(sinfo -h -N -t idle -o %N | sort -u | wc -l) = $LIVE_NODES ]"
	live_log "cluster up: $LIVE_NODES nodes, ports $LIVE_PORT+, state in $b"
}

# Stop every daemon this harness started, by PID (never by name: other
# Slurm processes on the machine are not ours).
live_stop() {
	local b=${LIVE_BASE:-} f pid
	[ -n "$b" ] && [ -d "$b/run" ] || return 0
	# jobs first, while the controller can still end them
	if [ -s "$b/run/slurmctld.pid" ] && kill -0 "$(cat "$b/run/slurmctld.pid")" 2>/dev/null; then
		scancel --full --quiet $(squeue -h -o %i 2>/dev/null) 2>/dev/null
		for _ in $(seq 20); do
			[ -z "$(squeue -h -t R,S,CG -o %i 2>/dev/null)" ] && break
			sleep 1
		done
	fi
	for f in "$b"/run/slurmd-*.pid "$b/run/slurmctld.pid" "$b/run/slurmdbd.pid" \
		"$b/run/mariadbd.pid" "$b/run/munged.pid"; do
		[ -s "$f" ] || continue
		pid=$(cat "$f")
		kill "$pid" 2>/dev/null
		for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
		kill -9 "$pid" 2>/dev/null
	done
	# steps a slurmd left behind: their batch scripts live under our spool
	for pid in $(pgrep -f "$b/spool" 2>/dev/null); do
		f=$(ps -o ppid= -p "$pid" 2>/dev/null | tr -d ' ')
		kill -9 "$pid" 2>/dev/null
		case $(ps -o comm= -p "$f" 2>/dev/null) in slurmstepd) kill -9 "$f" 2>/dev/null ;; esac
	done
}

# Unix users for jobs (created when missing).
live_users() {
	local u
	for u in "$@"; do
		id "$u" >/dev/null 2>&1 || useradd -M -s /usr/sbin/nologin "$u" ||
			live_die "useradd $u failed"
	done
}
