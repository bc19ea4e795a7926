#!/usr/bin/env bash
# A standalone Spark cluster on 127.0.0.1 from Maven artifacts — one master and two workers, each its own JVM — then
# one audit on it with the Spark engine and the same audit on the local engine; prints whether report.json agrees in
# every number (timing, provenance and environment aside). Needs the build (mvn -B -q install -DskipTests) and Java 17.
# Usage: scripts/spark-standalone.sh [SCENARIO] [TRIALS]     (default: scenarios/gaussian-sigma1.json, 1e7)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scenario="${1:-$here/scenarios/gaussian-sigma1.json}"
trials="${2:-1e7}"
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
classpath="$here/spark/target/spark-runtime.classpath"
if [ ! -f "$classpath" ] || [ ! -f "$here/reports/target/dp-audit.jar" ]; then
  (cd "$here" && mvn -B -q -DskipTests install >&2)
fi
flags=$(sed -n 's:.*<spark.module.flags>\(.*\)</spark.module.flags>.*:\1:p' "$here/pom.xml")
# A Spark home for the workers: executors are launched with $SPARK_HOME/jars on their class path.
mkdir -p "$work/spark-home/jars" "$work/spark-home/conf"
# Spark's runtime from Maven, plus Jackson, which Maven resolves as dp-audit's own dependency (it travels in
# dp-audit.jar, shaded) rather than as Spark's.
tr ':' '\n' < "$classpath" | while read -r j; do ln -s "$j" "$work/spark-home/jars/"; done
# The Maven repository the build used (MAVEN_OPTS=-Dmaven.repo.local=... or settings.xml may move it from ~/.m2):
# read off the Spark runtime's class path, which Maven wrote with the jars' absolute paths in it.
repo=$(tr ':' '\n' < "$classpath" | grep -m1 '/org/apache/spark/' | sed 's#/org/apache/spark/.*##')
if [ -z "$repo" ] || [ ! -d "$repo" ]; then
  echo "spark-standalone.sh: cannot find the Maven repository (got '$repo')" >&2
  exit 2
fi
for j in $(find "$repo"/com/fasterxml/jackson/core/jackson-{databind,core,annotations} -name '*.jar' \
    -path "*$(sed -n 's:.*<jackson.version>\(.*\)</jackson.version>.*:\1:p' "$here/pom.xml")*" \
    ! -name '*sources*' ! -name '*javadoc*'); do ln -sf "$j" "$work/spark-home/jars/"; done
# The cluster's own logs (files in the work directory) at INFO: the script reads the workers' registration there.
sed 's/rootLogger.level = warn/rootLogger.level = info/' \
  "$here/spark/src/main/resources/io/dpaudit/spark/log4j2-warn.properties" > "$work/spark-home/conf/log4j2.properties"
export SPARK_HOME="$work/spark-home" SPARK_LOCAL_IP=127.0.0.1 SPARK_SCALA_VERSION=2.13
cp="$work/spark-home/jars/*"
read -r port ui1 ui2 ui3 < <(python3 -c 'import socket
s=[socket.socket() for _ in range(4)]
[x.bind(("127.0.0.1", 0)) for x in s]
print(*[x.getsockname()[1] for x in s])')
java $flags -cp "$cp" -Dlog4j2.configurationFile="$SPARK_HOME/conf/log4j2.properties" \
  org.apache.spark.deploy.master.Master --host 127.0.0.1 --port "$port" --webui-port "$ui1" >"$work/master.log" 2>&1 &
pids+=($!)
for i in 1 2; do
  java $flags -cp "$cp" -Dlog4j2.configurationFile="$SPARK_HOME/conf/log4j2.properties" \
    org.apache.spark.deploy.worker.Worker --host 127.0.0.1 --cores 1 --memory 1g --webui-port "$([ "$i" = 1 ] && echo "$ui2" || echo "$ui3")" \
    --work-dir "$work/worker-$i" spark://127.0.0.1:$port >"$work/worker-$i.log" 2>&1 &
  pids+=($!)
done
for _ in $(seq 1 60); do
  if grep -q "Registering worker" "$work/master.log" 2>/dev/null && [ "$(grep -c "Registering worker" "$work/master.log")" -ge 2 ]; then break; fi
  sleep 1
done
echo "cluster: master spark://127.0.0.1:$port, $(grep -c "Registering worker" "$work/master.log" || true) worker(s)"
start=$(date +%s)
"$here/dp-audit" run "$scenario" --trials "$trials" --engine spark --master "spark://127.0.0.1:$port" \
  --partitions 8 --out "$work/spark" --quiet 2>"$work/spark.err" || [ $? -eq 3 ] || { echo "spark run failed:"; \
  tail -n 5 "$work/spark.err"; tail -n 20 "$work/master.log" "$work/worker-1.log"; exit 1; }
mid=$(date +%s)
"$here/dp-audit" run "$scenario" --trials "$trials" --out "$work/local" --quiet >/dev/null || [ $? -eq 3 ]
end=$(date +%s)
python3 - "$work/spark/report.json" "$work/local/report.json" <<'PY'
import json, sys
drop = {"provenance", "elapsedSeconds", "trialsPerSecond", "roundsPerSecondPerCore", "environment", "tool", "threads"}
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for r in (a, b):
    for k in drop:
        r.pop(k, None)
print("report.json, standalone cluster against local engine:", "identical in every number" if a == b else "DIFFERENT")
sys.exit(0 if a == b else 1)
PY
echo "spark engine on the cluster: $((mid - start)) s (JVM and cluster start-up included); local engine: $((end - mid)) s"
