cd '/work/main' 2>/dev/null || cd /
exec 'sh' '/work/main/kernel/tests/flip-bench.sh' '2000' '3'
