#!/usr/bin/env bash
# Builds the public N-Queens counters that nqueens is raced against (scripts/race.sh), the
# "anchors", from clones of their repositories at pinned commits. Nothing of theirs is kept
# in this repository: fetch each repository yourself (a bare clone will do, e.g.
# `git clone --bare https://github.com/EvgenyKluev/N-Queens-Count-Sol kluev.git`) and name
# its git folder in the variable below. An anchor whose variable is unset is skipped.
#
#   scripts/build-anchors.sh OUTDIR
#
#   variable      repository (https://github.com/...)  pinned commit (override: NAME_REV)
#   KLUEV_GIT     EvgenyKluev/N-Queens-Count-Sol       580f44458d14a3352bf37ccd58d9f0b96de41c05
#                 C++20 quadrant join; the fastest public counter we know. Its board size
#                 is a compile-time constant: one binary per N in KLUEV_NS (default 8, 10, 12
#                 to 21; N = 22 and up need its RowS symmetry and much memory: not built)
#   MQUEENS_GIT   sudden6/m-queens                     93a53fe066766735a1251160d4dbb843a7b33203
#                 C, OpenMP, mirror symmetry with lookahead
#   YGCH_GIT      ygch/n_queens (CPU part only)        dba7b01d4c9c9915e2e22aeee87bada8c9f5d8dd
#                 C++, OpenMP over pre-placed rows (its fixed 32 threads removed, so that
#                 THREADS decides)
#   Q27_GIT       preusser/q27 (src/cpp/coronal2.cpp)  c8df61dcfc03984585c183e771ae921d7530f242
#                 C++, the outer two rings pre-placed up to symmetry; one thread
#   TAKAKEN_GIT   suzukiiichiro/N-Queens               029571ac14bb909594fc4f62f3e2fee7bdd3824a
#                 file 06OpenCL/07_10NQueen.c: takaken's "N-Queens Solutions ver3.1"
#                 (2003), C, symmetry checked at the leaves; one thread
#   SOMERS_GIT    suzukiiichiro/N-Queens (default: TAKAKEN_GIT)
#                                                      db7bca69810db785a09b7bc8ee135522033b1e4b
#                 file 08Bit_Bash/2023-04-14/nq.c: Jeff Somers' nq.c (2002), C, mirror
#                 symmetry, an explicit stack; one thread (its MAX raised from 18 to 30)
#   FAF_GIT       olepoeschl/NQueensFAF (CPU solver)   9c6ee92758ccd3281e6f69cfb376616a813622dc
#                 Java; needs javac 17 and the Kryo jars (Debian: apt-get install
#                 libkryo-java; KRYO_JARS names another folder)
#
# Each anchor lands in OUTDIR/bin/NAME (kluev, m-queens, ygch, q27-coronal2, takaken,
# somers, nqueensfaf), run as `NAME N THREADS`: it prints the program's own output, then
# one line `anchor=NAME n=N threads=T total=COUNT` (T: the threads it really used). Their
# sources, as exported and patched, lie in OUTDIR/src. After building, each anchor counts
# N = 8, 10 and 12 on 1 and 2 threads against OEIS A000170 (CHECK=0 skips that).
#
# Environment: CC, CXX (default gcc, g++), OPT (default "-O3 -march=native"; e.g.
# OPT="-O3 -march=x86-64-v3" builds them for AVX2 machines), KLUEV_NS.
set -euo pipefail
[ $# -eq 1 ] || { sed -n '2,40p' "$0" >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
mkdir -p "$out/bin" "$out/src"
CC=${CC:-gcc}
CXX=${CXX:-g++}
read -r -a opt <<< "${OPT:--O3 -march=native}"
SOMERS_GIT=${SOMERS_GIT:-${TAKAKEN_GIT:-}}

say() { echo "build-anchors: $*" >&2; }

# checkout GIT REV DIR: the tree of commit REV of the repository at GIT, fresh in DIR.
checkout() {
    rm -rf "$3" && mkdir -p "$3"
    git --git-dir="$1" archive --format=tar "$2" | tar -x -C "$3"
    git --git-dir="$1" rev-parse "$2^{commit}" > "$3/COMMIT"
}

# one_file GIT REV PATH DIR: only the file PATH of commit REV, into DIR.
one_file() {
    rm -rf "$4" && mkdir -p "$4"
    git --git-dir="$1" show "$2:$3" > "$4/${3##*/}"
    git --git-dir="$1" rev-parse "$2^{commit}" > "$4/COMMIT"
}

# edit FILE SED-EXPRESSION TEXT: applies the edit, then checks that TEXT is there.
edit() {
    sed -i -e "$2" "$1"
    grep -qF -- "$3" "$1" || { say "the edit of $1 did not apply: $2"; return 1; }
}

# wrapper NAME SRC: OUTDIR/bin/NAME, a bash script whose body is read from standard
# input, @SRC@ standing for the anchor's source folder.
wrapper() {
    { printf '#!/usr/bin/env bash\n# %s N THREADS: made by scripts/build-anchors.sh\nset -euo pipefail\n' "$1"
      sed "s|@SRC@|$2|g"; } > "$out/bin/$1"
    chmod +x "$out/bin/$1"
}

anchor_kluev() {
    local src=$out/src/kluev n cuts match bmi fetch
    checkout "$KLUEV_GIT" "${KLUEV_REV:-580f44458d14a3352bf37ccd58d9f0b96de41c05}" "$src"
    # Its README: uncomment the BMI2 and prefetch headers; whether each N uses them is
    # then the table in solcounter.h's comment. The board size and that table's values
    # become macros, given per N below.
    edit "$src/bmintrin.h" 's|^//#include "bmi2.h"|#include "bmi2.h"|' '#include "bmi2.h"'
    edit "$src/prefetch.h" 's|^//#include "prefetchx86.h"|#include "prefetchx86.h"|' '#include "prefetchx86.h"'
    edit "$src/solcounter.h" 's/^inline constexpr int size = 18;/inline constexpr int size = NQ_SIZE;/' 'size = NQ_SIZE;'
    edit "$src/solcounter.h" 's/\.sieveCuts = 0,/.sieveCuts = NQ_CUTS,/' 'NQ_CUTS,'
    edit "$src/solcounter.h" 's/\.matchMinSize = 40,/.matchMinSize = NQ_MATCH,/' 'NQ_MATCH,'
    edit "$src/solcounter.h" 's/\.bmiIntrin = false,/.bmiIntrin = NQ_BMI,/' 'NQ_BMI,'
    edit "$src/solcounter.h" 's/\.prefetch = false,/.prefetch = NQ_FETCH,/' 'NQ_FETCH,'
    mkdir -p "$src/by-n"
    for n in ${KLUEV_NS:-8 10 12 13 14 15 16 17 18 19 20 21}; do
        case $n in
            [4-9]|1[0-8]) cuts=0 match=40 bmi=false fetch=true ;; # below 16: 16's column
            19) cuts=0 match=40 bmi=true fetch=true ;;
            20) cuts=3 match=60 bmi=true fetch=true ;;
            21) cuts=3 match=60 bmi=true fetch=false ;;
            *) say "kluev: N = $n not built (4 to 21 only here)"; continue ;;
        esac
        say "kluev: N = $n"
        "$CXX" -std=c++20 "${opt[@]}" -pthread -I"$src" -DNQ_SIZE="$n" -DNQ_CUTS=$cuts \
            -DNQ_MATCH=$match -DNQ_BMI=$bmi -DNQ_FETCH=$fetch "$src/main.cpp" -o "$src/by-n/$n"
    done
    # Its own command line is `nqueens THREADS`; it prints "Result: COUNT".
    wrapper kluev "$src" <<'EOF'
n=$1 t=${2:-1}
exe=@SRC@/by-n/$n
[ -x "$exe" ] || { echo "kluev: not built for N = $n (KLUEV_NS)" >&2; exit 2; }
text=$("$exe" "$t")
printf '%s\n' "$text"
echo "anchor=kluev n=$n threads=$t total=$(printf '%s\n' "$text" | sed -n 's/^Result: *\([0-9]*\).*/\1/p')"
EOF
}

anchor_mqueens() {
    local src=$out/src/m-queens
    checkout "$MQUEENS_GIT" "${MQUEENS_REV:-93a53fe066766735a1251160d4dbb843a7b33203}" "$src"
    "$CC" -std=c99 "${opt[@]}" -fopenmp "$src/main.c" -o "$src/m-queens"
    # It takes N alone, its threads from OpenMP's variable, and prints "... Solutions COUNT,".
    wrapper m-queens "$src" <<'EOF'
n=$1 t=${2:-1}
text=$(OMP_NUM_THREADS=$t @SRC@/m-queens "$n")
printf '%s\n' "$text"
echo "anchor=m-queens n=$n threads=$t total=$(printf '%s\n' "$text" | sed -n 's/.*Solutions *\([0-9]*\),.*/\1/p' | tail -n 1)"
EOF
}

anchor_ygch() {
    local src=$out/src/ygch
    checkout "$YGCH_GIT" "${YGCH_REV:-dba7b01d4c9c9915e2e22aeee87bada8c9f5d8dd}" "$src"
    edit "$src/src/n_queens.cpp" 's|omp_set_num_threads(32);|/* threads: as the caller set them */|' 'as the caller set them'
    # Its main.cpp drives the CUDA code; this one calls the CPU functions: the serial one
    # on one thread, else the OpenMP one, with 6 rows placed first (its README's example).
    cat > "$src/src/anchor_main.cpp" <<'EOF'
#include <cstdio>
#include <cstdlib>
#include <omp.h>
#include "n_queens.h"

int main(int argc, char **argv) {
    if (argc < 2) { std::fprintf(stderr, "usage: ygch N [THREADS] [ROWS]\n"); return 2; }
    int n = std::atoi(argv[1]);
    int threads = argc > 2 ? std::atoi(argv[2]) : 1;
    int rows = argc > 3 ? std::atoi(argv[3]) : 6;
    rows = rows > n - 2 ? n - 2 : rows;
    rows = rows < 2 ? 2 : rows;
    omp_set_num_threads(threads);
    long long total = threads > 1 ? parallel_n_queens(n, rows) : serial_n_queens(n, rows);
    std::printf("ygch: N = %d, %d rows placed first, total %lld\n", n, rows, total);
    std::printf("anchor=ygch n=%d threads=%d total=%lld\n", n, threads, total);
    return 0;
}
EOF
    "$CXX" "${opt[@]}" -fopenmp -I"$src/src" "$src/src/n_queens.cpp" "$src/src/anchor_main.cpp" \
        -o "$out/bin/ygch"
}

anchor_q27() {
    local src=$out/src/q27-coronal2
    checkout "$Q27_GIT" "${Q27_REV:-c8df61dcfc03984585c183e771ae921d7530f242}" "$src"
    (cd "$src/src/cpp" && "$CXX" -std=gnu++11 "${opt[@]}" coronal2.cpp DBEntry.cpp Symmetry.cpp -o coronal2)
    # `coronal2 -x N` explores and counts; its table ends in a line "TOTAL <pre> <count>".
    wrapper q27-coronal2 "$src" <<'EOF'
n=$1
text=$(@SRC@/src/cpp/coronal2 -x "$n" | tr '\r' '\n' | grep -v '^Progress')
printf '%s\n' "$text"
echo "anchor=q27-coronal2 n=$n threads=1 total=$(printf '%s\n' "$text" | awk '$1 == "TOTAL" {print $3}')"
EOF
}

anchor_takaken() {
    local src=$out/src/takaken
    one_file "$TAKAKEN_GIT" "${TAKAKEN_REV:-029571ac14bb909594fc4f62f3e2fee7bdd3824a}" \
        06OpenCL/07_10NQueen.c "$src"
    # Its main() counts N = 2 to 24 in turn: the program is included as it is, its main
    # renamed, and this main counts one N with its NQueens() and globals.
    cat > "$src/anchor_main.c" <<'EOF'
#define main takaken_main
#include "07_10NQueen.c"
#undef main

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: takaken N [THREADS, ignored]\n"); return 2; }
    SIZE = atoi(argv[1]);
    if (SIZE < 4 || SIZE > MAXSIZE) { fprintf(stderr, "takaken: N must be 4 to %d\n", MAXSIZE); return 2; }
    NQueens();
    printf("takaken: N = %d, total %ld, unique %ld\n", SIZE, TOTAL, UNIQUE);
    printf("anchor=takaken n=%d threads=1 total=%ld\n", SIZE, TOTAL);
    return 0;
}
EOF
    "$CC" "${opt[@]}" -w -I"$src" "$src/anchor_main.c" -o "$out/bin/takaken"
}

anchor_somers() {
    local src=$out/src/somers
    one_file "$SOMERS_GIT" "${SOMERS_REV:-db7bca69810db785a09b7bc8ee135522033b1e4b}" \
        08Bit_Bash/2023-04-14/nq.c "$src"
    edit "$src/nq.c" 's/^#define MAX 18$/#define MAX 30/' '#define MAX 30'
    cat > "$src/anchor_main.c" <<'EOF'
#define main somers_main
#include "nq.c"
#undef main

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: somers N [THREADS, ignored]\n"); return 2; }
    int n = atoi(argv[1]);
    if (n < MIN || n > MAX) { fprintf(stderr, "somers: N must be %d to %d\n", MIN, MAX); return 2; }
    g_numsolutions = 0;
    Nqueen(n);
    printf("somers: N = %d, total %lu\n", n, (unsigned long)g_numsolutions);
    printf("anchor=somers n=%d threads=1 total=%lu\n", n, (unsigned long)g_numsolutions);
    return 0;
}
EOF
    "$CC" "${opt[@]}" -w -I"$src" "$src/anchor_main.c" -o "$out/bin/somers"
}

anchor_faf() {
    local src=$out/src/nqueensfaf jars=${KRYO_JARS:-/usr/share/java} cp="" jar
    for jar in kryo minlog reflectasm objenesis asm; do
        [ -f "$jars/$jar.jar" ] || { say "nqueensfaf: $jars/$jar.jar missing (apt-get install libkryo-java, or set KRYO_JARS)"; return 1; }
        cp=$cp${cp:+:}$jars/$jar.jar
    done
    checkout "$FAF_GIT" "${FAF_REV:-9c6ee92758ccd3281e6f69cfb376616a813622dc}" "$src"
    mkdir -p "$src/anchor/anchor" "$src/classes"
    cat > "$src/anchor/anchor/Main.java" <<'EOF'
package anchor;

import de.nqueensfaf.impl.CpuSolver;

/** Counts one board with NQueensFAF's CPU solver: Main N [THREADS] [PRESET_QUEENS]. */
public final class Main {
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        CpuSolver solver = new CpuSolver();
        solver.setN(n);
        solver.setThreadCount(threads);
        if (args.length > 2) solver.setPresetQueens(Integer.parseInt(args[2]));
        solver.setUpdateInterval(0); // no progress thread
        solver.start();
        System.out.println("nqueensfaf: N = " + n + ", total " + solver.getSolutions());
        System.out.println("anchor=nqueensfaf n=" + n + " threads=" + threads + " total=" + solver.getSolutions());
    }
}
EOF
    local impl=$src/nqueensfaf-impl/src/main/java/de/nqueensfaf/impl
    # The CPU solver and what it needs; the GPU solvers (LWJGL, OpenCL) are left out.
    javac --release 17 -nowarn -encoding UTF-8 -cp "$cp" -d "$src/classes" \
        "$src"/nqueensfaf-core/src/main/java/de/nqueensfaf/core/*.java \
        "$impl/Constellation.java" "$impl/ConstellationUtils.java" \
        "$impl/ConstellationsGenerator.java" "$impl/CpuSolver.java" "$src/anchor/anchor/Main.java"
    wrapper nqueensfaf "$src" <<EOF
exec java \${FAF_JAVA_OPTS:-} -cp '@SRC@/classes:$cp' anchor.Main "\$@"
EOF
}

declare -A known=([8]=92 [10]=724 [12]=14200)
built=() skipped=() failed=()
for spec in kluev:KLUEV_GIT:anchor_kluev m-queens:MQUEENS_GIT:anchor_mqueens \
        ygch:YGCH_GIT:anchor_ygch q27-coronal2:Q27_GIT:anchor_q27 \
        takaken:TAKAKEN_GIT:anchor_takaken somers:SOMERS_GIT:anchor_somers \
        nqueensfaf:FAF_GIT:anchor_faf; do
    IFS=: read -r name var fn <<< "$spec"
    if [ -z "${!var:-}" ]; then skipped+=("$name"); continue; fi
    say "building $name from ${!var}"
    set +e
    ( set -e; "$fn" )   # its own shell, so that the first failing step stops it
    rc=$?
    set -e
    if [ $rc -ne 0 ]; then failed+=("$name"); say "$name: FAILED"; continue; fi
    ok=true
    if [ "${CHECK:-1}" != 0 ]; then
        for n in 8 10 12; do
            for t in 1 2; do
                got=$("$out/bin/$name" "$n" "$t" 2>/dev/null | sed -n 's/^anchor=.* total=\([0-9]*\).*/\1/p' | tail -n 1) || true
                if [ "$got" != "${known[$n]}" ]; then
                    say "$name: N = $n on $t threads: total ${got:-none}, A000170 says ${known[$n]}"
                    ok=false
                fi
            done
        done
    fi
    if $ok; then built+=("$name"); else failed+=("$name"); fi
done
say "built: ${built[*]:-none} (in $out/bin)"
[ ${#skipped[@]} -eq 0 ] || say "skipped, their variable unset: ${skipped[*]}"
[ ${#failed[@]} -eq 0 ] || { say "failed: ${failed[*]}"; exit 1; }
