#!/bin/sh
# SPDX-License-Identifier: MIT
# One JSON schema (issue 16): every JSON output of the tools validates
# against schema/prio-tools.schema.json, the file installed to
# $(datadir)/prio-tools/.  The list below runs each tool in each JSON mode
# on the samples and the 24.11 oracle scenarios, and names the schema's
# definition of the output ("$defs"/TOOL.MODE); "file:" entries are the JSON
# transcripts of tests/cli (every .cmd with --json must be listed, so a new
# one is validated too).  Then the shared keys: the ones listed in SHARED
# have one $defs entry each and every output uses it under that key, any key
# two outputs use has one definition, and in the outputs themselves each
# shared key has one JSON type.  Adding an output: one line here and its
# $defs entry.  Uses only what python3-jsonschema 4.10 (Debian 12) knows.
set -u
python3 -c 'import jsonschema' 2>/dev/null ||
	{ echo "python3-jsonschema is not installed"; exit 77; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
export TZ=UTC LC_ALL=C
unset COLUMNS

# an oracle scenario as sources (the captures are not snapshot folders)
src() {
	echo "--conf $1/scontrol_show_config.txt --partitions $1/scontrol_show_partition.txt" \
		"--nodes $1/scontrol_show_node.txt --qos $1/sacctmgr_show_qos.txt" \
		"--assoc $1/sacctmgr_dump.cfg --sacct $1/sacct_a_P_X.txt" \
		"--jobs $1/scontrol_show_job_d.txt --now $(cat "$1/NOW")"
}
FAIRTREE=$(src tests/oracle/slurm-24.11-fairtree)
CLASSIC=$(src tests/oracle/slurm-24.11-classic)
MAXTRES=$(src tests/oracle/slurm-24.11-max-tres)
MULTIQOS=$(src tests/oracle/slurm-24.11-multi-qos)
ALTERED=$tmp/altered
sed 's/^ chem||30|0.370370|13221|0.368967|/ chem||30|0.370370|13221|0.370000|/' \
	tests/oracle/fairtree-basic/sshare_a_l_P.txt >"$ALTERED"

cat >"$tmp/list" <<'LIST'
prio-calc.sprio	prio-calc --snapshot samples/site --json
prio-calc.sprio	prio-calc --snapshot samples/site --json -l
prio-calc.sprio	prio-calc --snapshot samples/site --json -n
prio-calc.sprio	prio-calc --snapshot samples/site --json -l -n
prio-calc.sprio	prio-calc --snapshot samples/site --json -o '%i %r %u %Y %y %a %A %b %B %c %f %F %j %J %N %p %P %q %Q %t %T'
prio-calc.sprio	prio-calc --snapshot samples/slurm-24.11 --json -o '%i %u %o %n %Y'
prio-calc.sprio	prio-calc --snapshot tests/cli/privacy-data/alice --json -l --now 2026-11-22T03:55:13
prio-calc.sprio	prio-calc $CLASSIC --json -l
prio-calc.sprio	prio-calc $MAXTRES --json -l
prio-calc.sprio	prio-calc $MULTIQOS --json -l
prio-calc.sprio	prio-calc --snapshot samples/site --set PriorityWeightAge=5000 --json -l
prio-calc.weights	prio-calc --snapshot samples/site --json -w -l
prio-calc.weights	prio-calc $MAXTRES --json -w
prio-calc.explain	prio-calc --snapshot samples/site --json --explain 30,43
prio-calc.explain	prio-calc --snapshot samples/slurm-24.11 --json --explain 1
prio-calc.start	prio-calc --snapshot samples/site --json --start
prio-calc.start	prio-calc --snapshot samples/site --json --start -o '%i %A %P %j %u %U %a %q %t %T %S %e %V %D %Y %R %Q %C'
prio-calc.start	prio-calc $FAIRTREE --json --start
prio-calc.forecast	prio-calc --snapshot samples/site --json --forecast
prio-calc.forecast	prio-calc $FAIRTREE --json --forecast
prio-calc.rank	prio-calc --snapshot samples/site --json --rank
prio-calc.rank	prio-calc $MULTIQOS --json --rank
prio-calc.brief	prio-calc --snapshot samples/site --json --brief -u frank,ivan
prio-calc.check	prio-calc --snapshot samples/site --json --check
prio-calc.check	prio-calc --snapshot samples/slurm-24.11 --json --check
prio-calc.compare	prio-calc --snapshot samples/site --json --compare --set PriorityWeightFairshare=0
fstree-show.sshare	fstree-show --snapshot samples/site --json -a
fstree-show.sshare	fstree-show --snapshot samples/site --json -a -l
fstree-show.sshare	fstree-show --snapshot samples/site --json -u oscar -l
fstree-show.sshare	fstree-show --snapshot samples/site --json -a -l -m
fstree-show.sshare	fstree-show --snapshot samples/site --json -a -o Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,LevelFS,GrpTRESMins,GrpTRESRaw,TRESRunMins,Cluster,ID,Partition
fstree-show.sshare	fstree-show --snapshot tests/cli/json-data/slurm-24.11-classic --json -a -l
fstree-show.sshare	fstree-show --snapshot samples/site --json -a --algorithm ticket
fstree-show.tree	fstree-show --snapshot samples/site --json --tree
fstree-show.tree	fstree-show --snapshot samples/site --json --tree --algorithm ticket
fstree-show.tree	fstree-show --snapshot tests/cli/json-data/slurm-24.11-classic --json --tree
fstree-show.why	fstree-show --snapshot samples/site --json --why oscar
fstree-show.why	fstree-show --snapshot samples/site --json --why oscar --vs astro/alice
fstree-show.when	fstree-show --snapshot samples/site --json --when oscar --fairshare 0.1
fstree-show.when	fstree-show --snapshot samples/site --json --when oscar --fairshare 0.5
fstree-show.when	fstree-show --snapshot samples/site --json --when oscar --fairshare 0.99
fstree-show.when	fstree-show --snapshot samples/site --json --when ivan --level-fs 0.9
fstree-show.audit	fstree-show --conf tests/oracle/fairtree-basic/slurm.conf --audit tests/oracle/fairtree-basic/sshare_a_l_P.txt --json
fstree-show.audit	fstree-show --conf tests/oracle/fairtree-basic/slurm.conf --audit $ALTERED --json
fstree-show.audit	fstree-show --snapshot tests/cli/json-data/slurm-24.11-fairtree --audit tests/cli/json-data/slurm-24.11-fairtree/sshare.json --json
tres-bill.calculator	tres-bill --snapshot samples/site --json --tres cpu=4,mem=8G
tres-bill.calculator	tres-bill --snapshot samples/site --json --tres cpu=4,mem=8G --rate 2
tres-bill.calculator	tres-bill --conf tests/cli/bill-data/gpu.conf --tres cpu=16,mem=60G,node=1,gres/gpu=2,license/matlab=1 --json
tres-bill.calculator	tres-bill --conf tests/cli/bill-data/gpu.conf -N 2 -n 8 -c 2 --mem-per-cpu 4G --gres gpu:a100:3 --json
tres-bill.queue	tres-bill --snapshot samples/site --json
tres-bill.queue	tres-bill --snapshot samples/slurm-24.11 --json
tres-bill.queue	tres-bill $MAXTRES --json
tres-bill.verify	tres-bill --snapshot samples/site --json --verify
tres-bill.verify	tres-bill --conf samples/site/slurm.conf --sacct tests/cli/bill-data/reqtres-multi.txt --verify --json
tres-bill.verify	tres-bill $FAIRTREE --json --verify
tres-bill.utilization	tres-bill --snapshot samples/site --json cluster Utilization start=2026-11-22T03:00 end=2026-11-22T04:00
tres-bill.utilization	tres-bill --snapshot samples/site --json --decayed -T cpu,mem cluster Utilization start=2026-11-22T03:00 end=2026-11-22T04:00
tres-bill.utilization	tres-bill --snapshot samples/site --json --by day cluster Utilization start=2026-11-20 end=2026-11-22T04:00
tres-bill.usage	tres-bill --snapshot samples/site --json cluster AccountUtilizationByUser start=2026-11-22T03:00 end=2026-11-22T04:00
tres-bill.usage	tres-bill --snapshot samples/site --json --decayed cluster AccountUtilizationByUser tree start=2026-11-22T03:00 end=2026-11-22T04:00
tres-bill.usage	tres-bill --snapshot samples/site --json -T cpu,mem cluster UserUtilizationByAccount start=2026-11-22T03:00 end=2026-11-22T04:00
tres-bill.usage	tres-bill --snapshot samples/site --json -t percent --by day user TopUsage start=2026-11-21 end=2026-11-22T04:00
tres-bill.usage	tres-bill $FAIRTREE --json user TopUsage
tres-bill.sizes	tres-bill --snapshot samples/site --json -t percent --up-since 2026-11-22T03:37:12 job SizesByAccount grouping=2,4,8 accounts=physics,bio start=2026-11-22T03:00 end=2026-11-22T04:00
tres-bill.sizes	tres-bill --snapshot samples/site --json --by day job SizesByAccount PrintJobCount start=2026-11-21 end=2026-11-22T04:00
preempt-plan.plan	preempt-plan --snapshot samples/preempt-qos --job 3010 --json
preempt-plan.plan	preempt-plan --snapshot samples/preempt-qos --job 3010 --json --strategy slurm
preempt-plan.plan	preempt-plan --snapshot samples/preempt-qos -p all -N 1 -n 4 --json
preempt-plan.plan	preempt-plan --snapshot samples/preempt-three --job 96 --json
preempt-plan.queue	preempt-plan --snapshot samples/preempt-qos --job 3010 --json --queue
preempt-plan.queue	preempt-plan --snapshot samples/preempt-qos --job 3010 --json --queue -o '%i %P %j %u %t %T %M %D %R %N %C %q %a %l %r %Q'
fstree-show.history	fstree-show --history samples/series --user frank --json
fstree-show.history	fstree-show --history samples/series --user judy --json
prio-calc.history	prio-calc --history samples/series -j 30 --json
prio-diff.records	prio-diff samples/site samples/site-later --json
prio-diff.records	prio-diff samples/site samples/site-later --json --all
prio-diff.records	prio-diff samples/slurm-24.11 tests/cli/diff-data/live-0958 --json
tres-bill.calculator	file:tests/cli/bill-calc-gpu-json.out
tres-bill.sizes	file:tests/cli/bill-report-json.out
tres-bill.verify	file:tests/cli/bill-verify-json.out
tres-bill.verify	file:tests/cli/bill-verify-reqtres-json.out
prio-calc.sprio	file:tests/cli/calc-json.out
prio-calc.weights	file:tests/cli/calc-weights-json.out
fstree-show.sshare	file:tests/cli/fstree-json.out
fstree-show.tree	file:tests/cli/fstree-tree-json.out
fstree-show.when	file:tests/cli/fstree-when-json.out
fstree-show.when	file:tests/cli/fstree-when-never-json.out
fstree-show.why	file:tests/cli/fstree-why-json.out
preempt-plan.plan	file:tests/cli/preempt-qos-json.out
prio-calc.sprio	file:tests/cli/privacy-calc-json.out
LIST

# every JSON transcript is in the list
for cmd in tests/cli/*.cmd; do
	grep -q -- '--json' "$cmd" || continue
	out=${cmd%.cmd}.out
	# refused (usage tests) or not JSON ("squeue --json" input): skipped
	case $(head -c1 "$out" 2>/dev/null) in '[' | '{') ;; *) continue ;; esac
	grep -q "	file:$out\$" "$tmp/list" ||
		{ echo "$cmd: a JSON transcript not in json-schema.sh's list"; exit 1; }
done

n=0
while IFS='	' read -r def cmd; do
	n=$((n + 1))
	case $cmd in
	file:*) cp "${cmd#file:}" "$tmp/$n.json" ;;
	*)
		eval "$cmd" >"$tmp/$n.json" 2>"$tmp/$n.err"
		rc=$?
		# 1: the answer is no (--when never, --verify differences)
		[ $rc -le 1 ] || { echo "exit $rc: $cmd: $(head -2 "$tmp/$n.err")"; exit 1; }
		;;
	esac
	printf '%s\t%s\t%s\n' "$def" "$tmp/$n.json" "$cmd" >>"$tmp/manifest"
done <"$tmp/list"

python3 - schema/prio-tools.schema.json "$tmp/manifest" <<'PY'
import json, sys
from jsonschema import Draft202012Validator

# The concepts every tool names alike (prio-tools(7), JSON OUTPUT).
SHARED = ["job_id", "job", "user", "account", "partition", "qos", "cluster",
          "state", "state_long", "priority", "nodes", "nodelist", "reason",
          "name", "tres", "raw_shares", "level_fs", "depth"]
# prio-calc -w's one object is the weights, not a job: its job columns
# are null and its factors the integer weights.
NOT_A_JOB = {"prio-calc.weights"}

schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
defs = schema["$defs"]
failed = 0

def fail(msg):
    global failed
    failed += 1
    print(msg)

def props(d):
    """The per-object properties of an output definition."""
    body = d.get("items", d)
    return body.get("properties", {})

outputs = [k for k in defs if "." in k]
for key in SHARED:
    if key not in defs:
        fail(f"shared key {key}: no $defs entry")
    for out in outputs:
        p = props(defs[out]).get(key)
        if p is not None and out not in NOT_A_JOB and p != {"$ref": "#/$defs/" + key}:
            fail(f"{out}: key {key} is not the shared $defs/{key}")
seen = {}
for out in outputs:
    if out in NOT_A_JOB:
        continue
    for key, p in props(defs[out]).items():
        if key == "differences":
            continue  # the rows of --audit and --verify, each its own
        d = json.dumps(p, sort_keys=True)
        if key in seen and seen[key][0] != d:
            fail(f"key {key}: {seen[key][1]} and {out} define it differently")
        seen.setdefault(key, (d, out))

types = {}
n = 0
for line in open(sys.argv[2]):
    name, path, cmd = line.rstrip("\n").split("\t", 2)
    if name not in defs:
        fail(f"{cmd}: no $defs entry {name}")
        continue
    try:
        doc = json.load(open(path))
    except ValueError as e:
        fail(f"{cmd}: not JSON: {e}")
        continue
    v = Draft202012Validator({"$ref": "#/$defs/" + name, "$defs": defs})
    for e in sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))[:3]:
        fail(f"{cmd}: {name}: at {list(e.absolute_path)}: {e.message[:200]}")
    n += 1
    rows = doc if isinstance(doc, list) else doc.get("differences", [])
    if name in NOT_A_JOB:
        continue
    for row in rows:
        for key in SHARED:
            val = row.get(key)
            if val is None:
                continue
            if key in ("raw_shares", "level_fs"):
                continue  # a number or one word ("parent", "inf"): the schema's oneOf
            t = "integer" if isinstance(val, int) and not isinstance(val, bool) \
                else type(val).__name__
            types.setdefault(key, {}).setdefault(t, cmd)
for key, ts in types.items():
    if len(ts) > 1:
        fail(f"key {key} has several types: " +
             "; ".join(f"{t} in {c}" for t, c in ts.items()))
print(f"{n} JSON outputs checked against {len(outputs)} definitions")
sys.exit(1 if failed else 0)
PY
