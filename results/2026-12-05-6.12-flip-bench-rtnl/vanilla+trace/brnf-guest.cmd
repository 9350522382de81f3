cd '/work/mrun42' 2>/dev/null || cd /
exec 'sh' '/work/mrun42/kernel/tests/flip-bench.sh' '1000' '3'
