#!/usr/bin/env bash
# Two Stackbay instances in production mode behind HAProxy, on this machine, and a journey through the
# balancer (scripts/two-instances.test.ts) proving that sessions, uploads, rate limits, jobs and the
# catalogue cache hold across instances. Everything lives in a temporary directory and is stopped on exit.
# The processes are started with node itself (not npx), so the ids kept are the ones to stop.
# Needs root (PostgreSQL runs as the user postgres), PostgreSQL's binaries and haproxy (see .ci/run).
# Extra arguments go to vitest, e.g. `scripts/two-instances.sh -t "rate limit"`.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s%N)
step() { printf '== [%5.1f s] %s\n' "$(( ($(date +%s%N) - started) / 1000000 ))e-3" "$*"; }

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
[ -n "$pg_bin" ] || { echo "PostgreSQL's binaries are missing (/usr/lib/postgresql/*/bin)" >&2; exit 1; }
haproxy=$(command -v haproxy || echo /usr/sbin/haproxy)
[ -x "$haproxy" ] || { echo "haproxy is missing" >&2; exit 1; }
id postgres >/dev/null 2>&1 || { echo "the user postgres is missing" >&2; exit 1; }

tmp=$(mktemp -d /tmp/stackbay-lb.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
  local status=$?
  step "tearing down"
  # Stopped one by one by their own ids, newest first (the balancer before the instances).
  for (( i=${#pids[@]}-1; i>=0; i-- )); do kill "${pids[$i]}" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -d "$tmp/pg/data" ]; then
    su postgres -s /bin/sh -c "'$pg_bin/pg_ctl' -D '$tmp/pg/data' -m fast stop" >/dev/null 2>&1 || true
  fi
  if [ "$status" != 0 ]; then
    for log in "$tmp"/*.log; do
      [ -f "$log" ] || continue
      echo "--- last lines of $(basename "$log")"
      tail -n 20 "$log" | cut -c 1-400
    done
  fi
  rm -rf "$tmp"
  step "done (exit $status)"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  node -e 'const s=require("node:net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}
wait_for() { # name url seconds
  local deadline=$(( $(date +%s) + $3 ))
  until curl -sf -o /dev/null "$2"; do
    if [ "$(date +%s)" -ge "$deadline" ]; then echo "$1 did not answer $2 within $3 s" >&2; return 1; fi
    sleep 0.2
  done
}

pg_port=$(free_port)
s3_port=$(free_port)
port_a=$(free_port)
port_b=$(free_port)
lb_port=$(free_port)

step "PostgreSQL on port $pg_port"
mkdir -p "$tmp/pg"
chown postgres "$tmp/pg"
su postgres -s /bin/sh -c "'$pg_bin/initdb' -D '$tmp/pg/data' -A trust -U postgres -E UTF8" >/dev/null
# A throwaway server: durability off.
su postgres -s /bin/sh -c "'$pg_bin/pg_ctl' -D '$tmp/pg/data' -l '$tmp/pg/log' -w -o \"-k '$tmp/pg' -p $pg_port -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off\" start" >/dev/null

step "S3 stand-in (s3rver) on port $s3_port"
bucket=stackbay-media
node scripts/s3-server.mjs "$tmp/s3" "$s3_port" "$bucket" >"$tmp/s3.log" 2>&1 &
pids+=($!)

# What both instances share: one database, one secret, one public URL (the balancer's), one bucket.
export NODE_ENV=production
export DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/postgres"
AUTH_SECRET=$(node -e 'console.log(require("node:crypto").randomBytes(32).toString("base64url"))')
export AUTH_SECRET
LICENSE_SIGNING_KEY=$(node -e 'console.log(require("node:crypto").generateKeyPairSync("ed25519").privateKey.export({type:"pkcs8",format:"pem"}))')
export LICENSE_SIGNING_KEY
export PUBLIC_URL="http://127.0.0.1:$lb_port"
export OPERATOR_TRN=100123456789012
export ALLOW_TEST_PAYMENTS=true
export TRUST_PROXY=true
export LOG_LEVEL=warn
export STORAGE_DRIVER=s3
export S3_BUCKET=$bucket
export S3_REGION=us-east-1
export S3_ENDPOINT="http://127.0.0.1:$s3_port"
export S3_ACCESS_KEY_ID=S3RVER
export S3_SECRET_ACCESS_KEY=S3RVER
export S3_PUBLIC_BASE_URL="http://127.0.0.1:$s3_port/$bucket"
export S3_FORCE_PATH_STYLE=true
# The instances serve the API only: building the web app is not what this checks, and takes long.
export WEB_BUILD_DIR="$tmp/no-web"
export DATA_DIR="$tmp/cli"
mkdir -p "$DATA_DIR"

# Both instances start at once on the empty database: each migrates on start, under the migration lock,
# so one applies the migrations and the other finds nothing left to do. A stopped instance drains for
# SHUTDOWN_GRACE_SECONDS (readiness 503 first, so HAProxy's checks take it out) before it closes: the
# production default, as two failed checks a second apart can take over three seconds on a busy machine.
export SHUTDOWN_GRACE_SECONDS=5
# No shedding by event-loop delay: CI runs this beside the API tests with both cores busy, where an
# instance's loop can lag past production's 250 ms and answer 503 by design; a drain is what is checked.
export OVERLOAD_MAX_EVENT_LOOP_DELAY_MS=0
for name in a b; do
  port_var="port_$name"
  step "instance $name on port ${!port_var}"
  mkdir -p "$tmp/$name"
  DATA_DIR="$tmp/$name" PORT="${!port_var}" HOST=127.0.0.1 \
    node src/server/main.ts >"$tmp/instance-$name.log" 2>&1 &
  pids+=($!)
  declare "pid_$name=$!"
done
wait_for "instance a" "http://127.0.0.1:$port_a/api/health" 60
wait_for "instance b" "http://127.0.0.1:$port_b/api/health" 60

# Production never seeds demo data, so the accounts the journey needs are made with the operator's command.
LB_PASSWORD=$(node -e 'console.log(require("node:crypto").randomBytes(12).toString("base64url"))')
export STACKBAY_USER_PASSWORD=$LB_PASSWORD
step "admin, seller and buyer accounts (npm run user:create)"
node src/server/auth/user-cli.ts --email admin@lb.test --role admin --first-name Ada --last-name Admin >/dev/null &
admin_job=$!
node src/server/auth/user-cli.ts --email seller@lb.test --role seller --first-name Sam --last-name Seller >/dev/null &
seller_job=$!
node src/server/auth/user-cli.ts --email buyer@lb.test --role buyer --first-name Bo --last-name Buyer >/dev/null
wait "$admin_job" "$seller_job"
unset STACKBAY_USER_PASSWORD

# The balancer asks each instance whether it is ready: readiness turns 503 while an instance drains
# (SIGTERM), so a restarted instance stops getting requests before it stops serving them.
health_path=/api/health/ready
step "HAProxy on port $lb_port (round robin, checks on $health_path)"
cat >"$tmp/haproxy.cfg" <<CFG
global
  maxconn 256
defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
frontend stackbay
  bind 127.0.0.1:$lb_port
  default_backend instances
backend instances
  balance roundrobin
  option httpchk GET $health_path
  http-check expect status 200
  option forwardfor
  # A request whose connection an instance refuses (it closed before its checks took it out) goes to
  # the other one instead of failing.
  retries 2
  option redispatch
  # Names the instance that answered, so the journey can see the requests alternate.
  http-response set-header x-served-by %[srv_name]
  server a 127.0.0.1:$port_a check inter 1s fall 2 rise 1
  server b 127.0.0.1:$port_b check inter 1s fall 2 rise 1
CFG
"$haproxy" -c -q -f "$tmp/haproxy.cfg"
"$haproxy" -db -f "$tmp/haproxy.cfg" >"$tmp/haproxy.log" 2>&1 &
pids+=($!)
wait_for "the balancer" "$PUBLIC_URL$health_path" 20

step "journey through the balancer"
LB_URL="$PUBLIC_URL" \
  LB_INSTANCE_A="http://127.0.0.1:$port_a" LB_INSTANCE_B="http://127.0.0.1:$port_b" \
  LB_DATA_A="$tmp/a" LB_DATA_B="$tmp/b" LB_PASSWORD="$LB_PASSWORD" LB_PID_A="$pid_a" \
  npx vitest run --project e2e-lb "$@"
