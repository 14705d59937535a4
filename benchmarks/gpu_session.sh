#!/usr/bin/env bash
# One GPU-machine session: the GPU test suite and/or the GPU benchmarks, logs under $OUT.
#
#   bash benchmarks/gpu_session.sh tests              # env check + GFRAME_ENGINE=gpu test suite
#   bash benchmarks/gpu_session.sh tests-par [shards]  # the same suite in parallel shards (a 16-core machine)
#   bash benchmarks/gpu_session.sh smoke              # the newest GPU paths only (a minute)
#   bash benchmarks/gpu_session.sh bench 1e7 [1e8]    # db-benchmark: pandas, gframe (gpu), cudf.pandas
#   bash benchmarks/gpu_session.sh bench-bg 1e8 groupby   # the same, detached (setsid), log in /tmp
#   bash benchmarks/gpu_session.sh fuzz-bg [gpu_n] [cpu_n]  # fuzz campaigns (GPU and CPU engine), detached
#   bash benchmarks/gpu_session.sh fuzz-wait [seconds]      # wait for them, copy summaries under $OUT
#   bash benchmarks/gpu_session.sh tpch 1 [systems...]     # TPC-H sf1: data, then gframe-gpu / polars-gpu /
#                                                          # polars / duckdb / pandas side by side
#   bash benchmarks/gpu_session.sh tpch-gen 10             # TPC-H sf10 data only (one step of its own)
#
# Run from the repository root after the RAPIDS stage (``. /tmp/rapids/env``, see
# ../shared/gpu/stage-rapids). Each step is bounded by `timeout` so a call ends inside its limit.
set -u
OUT=${OUT:-/tmp/gframe-out}
mkdir -p "$OUT"
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
export PYTHONUNBUFFERED=1
step=${1:-tests}
shift || true

env_check() {
  {
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
    python3 - <<'PY'
import importlib
for m in ("pylibcudf", "rmm", "cupy", "polars", "pandas", "pyarrow", "numpy", "pytest", "hypothesis", "cudf"):
    try:
        mod = importlib.import_module(m)
        print(m, getattr(mod, "__version__", "?"))
    except Exception as exc:
        print(m, "MISSING", type(exc).__name__, exc)
from gframe import engines
print("gpu_unavailable_reason:", engines.gpu_unavailable_reason())
PY
  } 2>&1 | tee "$OUT/env.txt"
}

case "$step" in
  tests)
    # the project's pandas (tests are written against it) for the test run only: cudf.pandas in the
    # benchmarks needs the machine's own pandas (<3.1)
    if ls .gpu-pandas/pandas-*.whl >/dev/null 2>&1; then
      python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/pd31 .gpu-pandas/pandas-*.whl
    fi
    [ -d /tmp/pd31 ] && export PYTHONPATH=/tmp/pd31:$PYTHONPATH
    env_check
    # the GPU engine's own tests first (fast feedback), then the whole suite on the GPU engine
    GFRAME_ENGINE=gpu timeout 200 python3 -m pytest -p no:cacheprovider -rfE \
      tests/test_gpu_engine.py tests/test_fake_fidelity.py tests/test_residency.py tests/test_rank.py \
      2>&1 | tail -300 > "$OUT/tests_gpu_engine.log"
    tail -3 "$OUT/tests_gpu_engine.log"
    GFRAME_ENGINE=gpu timeout ${SUITE_TIMEOUT:-420} python3 -m pytest -o cache_dir=/tmp/pytest-cache -rfE \
      --durations=15 tests/ > "$OUT/tests_gpu_suite.log" 2>&1
    echo "suite rc=$?"; tail -5 "$OUT/tests_gpu_suite.log"
    # the same failures on the CPU engine: which are the GPU engine's own
    GFRAME_ENGINE=cpu timeout 60 python3 -m pytest -o cache_dir=/tmp/pytest-cache -rf --lf tests/ \
      > "$OUT/tests_cpu_lastfailed.log" 2>&1
    tail -3 "$OUT/tests_cpu_lastfailed.log"
    ;;
  tests-par)
    # the GPU-engine suite split over N processes (test files dealt by size, largest first), each
    # under SUITE_TIMEOUT; a log per shard and one summary line each in tests_par.txt
    shards=${1:-3}
    if ls .gpu-pandas/pandas-*.whl >/dev/null 2>&1 && [ ! -d /tmp/pd31 ]; then
      python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/pd31 .gpu-pandas/pandas-*.whl
    fi
    [ -d /tmp/pd31 ] && export PYTHONPATH=/tmp/pd31:$PYTHONPATH
    env_check
    ls -S tests/test_*.py | awk -v n="$shards" '{ print > ("/tmp/shard." (NR - 1) % n) }'
    for k in $(seq 0 $((shards - 1))); do
      GFRAME_ENGINE=gpu timeout ${SUITE_TIMEOUT:-420} python3 -m pytest -o cache_dir=/tmp/pytest-cache-$k -rfE -q \
        $(cat /tmp/shard.$k) > "$OUT/tests_gpu_shard$k.log" 2>&1 &
    done
    wait
    for k in $(seq 0 $((shards - 1))); do echo "shard $k: $(tail -1 "$OUT/tests_gpu_shard$k.log")"; done | tee "$OUT/tests_par.txt"
    grep -h "^FAILED\|^ERROR" "$OUT"/tests_gpu_shard*.log | head -60
    # cudf 26.10 imports only with the machine's own pandas: the device-interop tests once more without
    # the project's pandas, so their cudf cases run (-rs lists what still skipped, and why)
    PYTHONPATH=$(echo "$PYTHONPATH" | sed 's#/tmp/pd31:##') GFRAME_ENGINE=gpu timeout 120 python3 -m pytest \
      -o cache_dir=/tmp/pytest-cache-x -rfEs -q tests/test_device_interop.py > "$OUT/tests_device_interop_machine_pandas.log" 2>&1
    echo "device interop (machine pandas): $(tail -1 "$OUT/tests_device_interop_machine_pandas.log")"
    ;;
  smoke)
    # a minute's check of the newest GPU paths (traced groupby.apply with corr, compiled UDFs, CSV)
    env_check
    GFRAME_ENGINE=gpu timeout 240 python3 -m pytest -p no:cacheprovider -rfE -x -q \
      tests/test_udf_trace.py tests/test_udf_compiled.py tests/test_gpu_engine.py -k "corr or q9 or udf or compiled or csv or map" \
      2>&1 | tail -60 | tee "$OUT/smoke.log"
    ;;
  bench)
    rows=${1:-1e7}; tasks=${2:-groupby join}
    GFRAME_ENGINE=gpu timeout ${BENCH_TIMEOUT:-560} python3 benchmarks/db_benchmark.py --rows $rows --task $tasks \
      --solutions ${SOLUTIONS:-pandas gframe cudf_pandas} --isolate --repeat ${REPEAT:-2} --pandas-repeat 1 --sync cupy \
      --markdown "$OUT/bench.md" 2>&1 | tee "$OUT/bench.log" | grep -v "^    |" | tail -60
    ;;
  bench-bg)
    rows=${1:-"1e7 1e8"}; tasks=${2:-groupby join}; extra=${BENCH_EXTRA:---check-max-rows 1e7}
    setsid bash -c "GFRAME_ENGINE=gpu python3 benchmarks/db_benchmark.py --rows $rows --task $tasks $extra \
      --solutions pandas gframe cudf_pandas --isolate --repeat ${REPEAT:-2} --pandas-repeat 1 --sync cupy \
      --markdown /tmp/bench-bg.md > /tmp/bench-bg.log 2>&1; echo done >> /tmp/bench-bg.log" < /dev/null &
    echo "started in the background: /tmp/bench-bg.log"
    ;;
  wait-bg)
    # wait up to $1 seconds for the background run, then copy what it has written
    limit=${1:-540}; t=0
    while [ $t -lt "$limit" ] && ! tail -1 /tmp/bench-bg.log 2>/dev/null | grep -q '^done$'; do sleep 10; t=$((t+10)); done
    cp /tmp/bench-bg.log "$OUT/bench-bg.log" 2>/dev/null; cp /tmp/bench-bg.md "$OUT/bench-bg.md" 2>/dev/null
    grep -v "^    |" /tmp/bench-bg.log | tail -60
    ;;
  fuzz-bg)
    # issue 9's campaigns on the machine's cores: GPU engine (5,000) and CPU engine (20,000), optimizer
    # on and off, seeds disjoint from the ones used while fixing; each bounded by FUZZ_TIMEOUT seconds
    gpu_n=${1:-5000}; cpu_n=${2:-20000}; limit=${FUZZ_TIMEOUT:-1500}
    [ -d /tmp/pd31 ] && export PYTHONPATH=/tmp/pd31:$PYTHONPATH
    setsid bash -c "GFRAME_GPU_MEMORY=cuda timeout $limit python3 benchmarks/fuzz_campaign.py --engine gpu --seed ${GPU_SEED:-100000} --n $gpu_n \
      --jobs ${GPU_JOBS:-6} --shrink 40 --out /tmp/fuzz-gpu > /tmp/fuzz-gpu.log 2>&1; echo done >> /tmp/fuzz-gpu.log" < /dev/null &
    setsid bash -c "GFRAME_ENGINE=cpu timeout $limit python3 benchmarks/fuzz_campaign.py --engine cpu --seed ${CPU_SEED:-200000} \
      --n $cpu_n --jobs ${CPU_JOBS:-8} --shrink 40 --out /tmp/fuzz-cpu > /tmp/fuzz-cpu.log 2>&1; echo done >> /tmp/fuzz-cpu.log" < /dev/null &
    echo "started: /tmp/fuzz-gpu.log /tmp/fuzz-cpu.log"
    ;;
  fuzz-wait)
    # wait up to $1 seconds; FUZZ_STOP=1 then stops what still runs (its results so far are kept)
    limit=${1:-540}; t=0
    while [ $t -lt "$limit" ] && ! { tail -1 /tmp/fuzz-gpu.log | grep -q '^done$' && tail -1 /tmp/fuzz-cpu.log | grep -q '^done$'; }; do
      sleep 10; t=$((t+10)); done
    for e in gpu cpu; do
      mkdir -p "$OUT/fuzz-$e"; cp /tmp/fuzz-$e.log "$OUT/fuzz-$e/" 2>/dev/null
      cp /tmp/fuzz-$e/summary.json /tmp/fuzz-$e/repros.md /tmp/fuzz-$e/results.jsonl "$OUT/fuzz-$e/" 2>/dev/null
      echo "== $e: $(wc -l < /tmp/fuzz-$e/results.jsonl 2>/dev/null) cases written"; tail -15 /tmp/fuzz-$e.log
    done
    if [ "${FUZZ_STOP:-0}" = 1 ]; then pkill -f fuzz_campaign.py; pkill -f gframe.testing.fuzz; sleep 2; fi
    ;;
  tpch-gen|tpch)
    # TPC-H parquet from tpchgen-cli: on PATH, or the wheel carried in .gpu-wheels/ (this machine has
    # no package index; generate.py installs it with pip --no-index --target). Data under /tmp,
    # kept between calls while the machine stays warm (a second call reuses it).
    sf=${1:-1}; shift || true
    data=${TPCH_DATA:-/tmp/tpch/sf$sf}
    # the project's pandas, as for the tests (no cudf.pandas in this comparison): gframe's answers are
    # pandas 3.1's, and the numpy-backed reads use read_parquet(to_pandas_kwargs=)
    if ls .gpu-pandas/pandas-*.whl >/dev/null 2>&1 && [ ! -d /tmp/pd31 ]; then
      python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/pd31 .gpu-pandas/pandas-*.whl
    fi
    [ -d /tmp/pd31 ] && export PYTHONPATH=/tmp/pd31:$PYTHONPATH
    export TPCHGEN_WHEEL_DIR=${TPCHGEN_WHEEL_DIR:-$PWD/.gpu-wheels}
    start=$SECONDS
    timeout ${GEN_TIMEOUT:-290} python3 benchmarks/tpch/generate.py --sf "$sf" --out "$data" 2>&1 \
      | tee "$OUT/tpch_gen_sf$sf.log"
    echo "tpch-gen sf$sf: $((SECONDS - start)) s, $(du -sh "$data" 2>/dev/null | cut -f1)" | tee -a "$OUT/tpch_gen_sf$sf.log"
    [ "$step" = tpch-gen ] && exit 0
    systems=${*:-gframe-gpu polars-gpu polars duckdb pandas}
    tag=sf${sf}_${VARIANT:-arrow}_$(echo $systems | tr ' -' '__')
    # each system in its own process under its own limit; pandas timed once (it takes the longest)
    timeout ${BENCH_TIMEOUT:-560} python3 benchmarks/tpch/run.py --data "$data" --systems $systems \
      --variant ${VARIANT:-arrow} --repeat ${REPEAT:-3} --pandas-repeat 1 --timeout ${SYSTEM_TIMEOUT:-240} \
      --markdown "$OUT/tpch_$tag.md" --json "$OUT/tpch_$tag.json" 2>&1 | tee "$OUT/tpch_$tag.log" | tail -45
    ;;
  *)
    echo "unknown step $step"; exit 2 ;;
esac
