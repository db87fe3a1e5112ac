#!/usr/bin/env bash
# make test's runner: `make PART` for each part in order, then how long each
# took (printed after a failure too, with the part that failed). Parts that
# build (build, npm, playground, netserver) run once, as parts of their own;
# the others are told not to remake them (make -o).
#
# usage: scripts/test-parts.sh MAKE PART...
make=$1
shift
builders=(deps assets build npm playground netserver)
names=()
secs=()
failed=""
status=0
start=$(date +%s)
for part in "$@"; do
	old=()
	for b in "${builders[@]}"; do
		if [ "$b" = "$part" ] || { [ "$part" = build ] && [ "$b" != npm ] && [ "$b" != playground ] && [ "$b" != netserver ]; }; then
			continue # (the part itself, and what build makes: deps and assets)
		fi
		old+=(-o "$b")
	done
	t0=$(date +%s)
	"$make" --no-print-directory "${old[@]}" "$part"
	st=$?
	names+=("$part")
	secs+=($(($(date +%s) - t0)))
	if [ "$st" -ne 0 ]; then
		failed=$part
		status=$st
		break
	fi
done
echo
echo "make test: time per part"
for i in "${!names[@]}"; do
	printf '  %-20s %6ds\n' "${names[$i]}" "${secs[$i]}"
done
printf '  %-20s %6ds\n' total $(($(date +%s) - start))
if [ -n "$failed" ]; then
	echo "make test: $failed failed (status $status)"
fi
exit "$status"
