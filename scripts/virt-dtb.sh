#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The device tree of QEMU's arm64 virt machine with one unified L2 cache per
# socket, so that the kernel sees two last-level caches as it does on the
# x86_64 guest (make test-arm64).
#   scripts/virt-dtb.sh <-smp argument> <output.dtb> [more -M virt options]
#
# QEMU 7.2 describes the sockets in /cpus/cpu-map but no caches. Booted on
# that, the kernel builds its MC domain per socket from cpu-map alone (and
# enables cache-aware scheduling), while cacheinfo reports the L2 of
# CLIDR_EL1 as shared by all four CPUs (index2/shared_cpu_list 0-3): the
# caches the kernel describes contradict the domains it schedules with, and
# the boot test counts one LLC. With a cache node per socket and
# next-level-cache in each CPU node, shared_cpu_list reads 0-1 and 2-3 and
# the cache, the domain and the LLC of cache-aware scheduling agree.
# QEMU fills /chosen and /memory itself when it is given the result with
# -dtb, on the same machine, -smp, -m and -cpu.

. "$(dirname "$0")/common.sh"

smp=${1:?usage: virt-dtb.sh <smp> <output.dtb> [-M options]}
out=${2:?usage: virt-dtb.sh <smp> <output.dtb> [-M options]}
mopts=${3:-}
tmp=$out.tmp
qemu-system-aarch64 -M "virt$mopts,dumpdtb=$tmp.dtb" -cpu max -smp "$smp" -m 2G \
	-nographic > /dev/null 2>&1 || die "QEMU could not dump the virt machine's device tree"
dtc -q -I dtb -O dts -o "$tmp.dts" "$tmp.dtb"
python3 - "$tmp.dts" <<'EOF' || die "cannot add the L2 cache nodes to the device tree"
import re, sys

path = sys.argv[1]
dts = open(path).read()
cpus = re.search(r'\n\tcpus \{\n(.*?)\n\t\};\n', dts, re.S)
body = cpus.group(1)
# cpu-map: socketN { clusterM { coreK { cpu = <phandle>; ... } } }
socket_of = {}
for m in re.finditer(r'\n\t\t\tsocket(\d+) \{\n(.*?)\n\t\t\t\};', body, re.S):
    for ph in re.findall(r'cpu = <(0x[0-9a-f]+)>;', m.group(2)):
        socket_of[ph] = int(m.group(1))
if len(set(socket_of.values())) < 2:
    sys.exit('cpu-map has fewer than 2 sockets: use -smp N,sockets=2')


def add_cache(m):
    node = m.group(0)
    ph = re.search(r'phandle = <(0x[0-9a-f]+)>;', node).group(1)
    return node.replace('\t\t\tphandle =',
                        '\t\t\tnext-level-cache = <&l2_%d>;\n\t\t\tphandle =' % socket_of[ph], 1)


body = re.sub(r'\n\t\tcpu@[0-9a-f]+ \{\n.*?\n\t\t\};', add_cache, body, flags=re.S)
for s in sorted(set(socket_of.values())):
    body += ('\n\n\t\tl2_%d: l2-cache%d {\n\t\t\tcompatible = "cache";\n'
             '\t\t\tcache-level = <2>;\n\t\t\tcache-unified;\n'
             '\t\t\tcache-size = <0x100000>;\n\t\t\tcache-line-size = <64>;\n'
             '\t\t\tcache-sets = <1024>;\n\t\t};' % (s, s))
dts = dts[:cpus.start(1)] + body + dts[cpus.end(1):]
open(path, 'w').write(dts)
EOF
dtc -q -I dts -O dtb -o "$out" "$tmp.dts"
rm -f "$tmp.dtb" "$tmp.dts"
