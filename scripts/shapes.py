# SPDX-License-Identifier: GPL-2.0
"""The instructions an x86_64 function runs for a given state, from its object code.

    shapes.py <object> <function> <offsets.s> <state>
    shapes.py --static <object> <function>
    shapes.py --figures <figures.tsv> <paths.txt>

Walks <function>'s disassembly (llvm-objdump, AT&T syntax, relocations) from
its entry with the registers and memory the state gives, instruction by
instruction, and prints the count of instructions it ran up to its return
(the return thunk's jump counted), then the instructions, one per line.
It understands the few instructions the one-entity pick runs and stops with
an error at any other, at a branch on a value the state does not give, at a
call and at a loop of more than 1,000 steps: a path it cannot follow is an
error, never a count.

The state is pick_next_entity(rq, protect) with one queued entity (or
pick_eevdf(cfs_rq, protect), where GCC keeps a copy of it out of line):
    curr-runs       rq->cfs.curr is an entity on the runqueue
    curr-dequeued   rq->cfs.curr is an entity off the runqueue (on_rq == 0)
    no-curr         rq->cfs.curr is NULL
with the leftmost entity queued and not delayed. <offsets.s> is the
assembly of scripts/shapes-offsets.c compiled as fair.c is: the field
offsets of that build ("->name $value" lines).

With --static, prints the function's size in instructions and how many of
them move one register to another (mov between two registers): what the
whole function gained or lost, on routes no walk follows.

With --figures, writes the figures of make bench-shapes from the walks and
the lists of differing functions it recorded in paths.txt (the command
make check-claims recomputes them with), after checking that each walk
holds as many instructions as its count.
"""

import os
import re
import subprocess
import sys

MAX_STEPS = 1000

REGS = {}
for base, names in {
    'rax': 'rax eax ax al', 'rbx': 'rbx ebx bx bl', 'rcx': 'rcx ecx cx cl',
    'rdx': 'rdx edx dx dl', 'rsi': 'rsi esi si sil', 'rdi': 'rdi edi di dil',
    'rbp': 'rbp ebp bp bpl', 'rsp': 'rsp esp sp spl',
}.items():
    for n in names.split():
        REGS[n] = base
for i in range(8, 16):
    for suf in ('', 'd', 'w', 'b'):
        REGS['r%d%s' % (i, suf)] = 'r%d' % i


class Stop(Exception):
    pass


class Ptr:
    """A pointer: an object of the state and an offset into it."""

    def __init__(self, obj, off=0):
        self.obj, self.off = obj, off

    def __add__(self, n):
        return Ptr(self.obj, self.off + n)

    def __eq__(self, o):
        return isinstance(o, Ptr) and (o.obj, o.off) == (self.obj, self.off)

    def __hash__(self):
        return hash((self.obj, self.off))

    def __repr__(self):
        return '&%s+%#x' % (self.obj, self.off)


UNKNOWN = None


def offsets(path):
    off = {}
    with open(path) as f:
        for m in re.finditer(r'->(\w+) \$?(-?\d+)', f.read()):
            off[m.group(1)] = int(m.group(2))
    for k in ('cfs', 'h_nr_queued', 'curr', 'leftmost', 'run_node', 'on_rq', 'sched_delayed'):
        if k not in off:
            raise Stop('%s: no offset of %s' % (path, k))
    return off


def state(name, off):
    """The memory of a state."""
    mem = {
        Ptr('rq', off['h_nr_queued']): 1,
        Ptr('rq', off['leftmost']): Ptr('first', off['run_node']),
        Ptr('first', off['on_rq']): 1,
        Ptr('first', off['sched_delayed']): 0,
    }
    if name == 'no-curr':
        mem[Ptr('rq', off['curr'])] = 0
    elif name in ('curr-runs', 'curr-dequeued'):
        mem[Ptr('rq', off['curr'])] = Ptr('curr')
        mem[Ptr('curr', off['on_rq'])] = 1 if name == 'curr-runs' else 0
        mem[Ptr('curr', off['sched_delayed'])] = 0
    else:
        raise Stop('unknown state %s' % name)
    return mem


def entry(func, off):
    """The registers at the entry of func: its arguments."""
    first = {'pick_next_entity': Ptr('rq'), 'pick_eevdf': Ptr('rq', off['cfs'])}
    if func not in first:
        raise Stop('no entry state for %s' % func)
    return {'rdi': first[func], 'rsi': 1, 'rsp': Ptr('stack', 0x1000)}


def disassemble(obj, func):
    """[(address, mnemonic, operands, relocation symbol or None)] of func."""
    out = subprocess.run(['llvm-objdump' + os.environ.get('LLVM_SUFFIX', ''), '-d', '-r',
                          '--no-show-raw-insn', '--print-imm-hex',
                          '--disassemble-symbols=' + func, obj],
                         check=True, capture_output=True, text=True).stdout
    insns = []
    for line in out.splitlines():
        line = line.strip()
        m = re.match(r'^([0-9a-f]+):\s+R_X86_64_\w+\s+(\S+)', line)
        if m:
            if insns:
                insns[-1][3] = re.sub(r'[-+]0x[0-9a-f]+$', '', m.group(2))
            continue
        m = re.match(r'^([0-9a-f]+):\s+(.*)$', line)
        if not m:
            continue
        text = re.sub(r'\s*<[^>]*>\s*$', '', m.group(2)).strip()
        text = re.sub(r'\s*#.*$', '', text)
        parts = text.split(None, 1)
        mnem = parts[0]
        ops = parts[1] if len(parts) > 1 else ''
        if mnem in ('cs', 'ds', 'notrack', 'lock', 'rep') and ops:
            p = ops.split(None, 1)
            mnem, ops = p[0], p[1] if len(p) > 1 else ''
        insns.append([int(m.group(1), 16), mnem, ops, None])
    if not insns:
        raise Stop('%s: no function %s' % (obj, func))
    return insns


def split_ops(ops):
    res, depth, cur = [], 0, ''
    for ch in ops:
        if ch == '(':
            depth += 1
        elif ch == ')':
            depth -= 1
        if ch == ',' and depth == 0:
            res.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        res.append(cur.strip())
    return res


class Machine:
    def __init__(self, regs, mem):
        self.regs, self.mem = dict(regs), dict(mem)
        self.flags = None

    def reg(self, name):
        base = REGS.get(name.lstrip('%'))
        if base is None:
            raise Stop('register %s' % name)
        return base

    def addr(self, op):
        m = re.match(r'^(-?0x[0-9a-f]+|-?\d+)?\(%(\w+)\)$', op)
        if not m:
            raise Stop('addressing %s' % op)
        base = self.regs.get(self.reg(m.group(2)), UNKNOWN)
        disp = int(m.group(1), 0) if m.group(1) else 0
        if not isinstance(base, Ptr):
            raise Stop('address %s from %r' % (op, base))
        return base + disp

    def read(self, op):
        if op.startswith('$'):
            return int(op[1:], 0)
        if op.startswith('%'):
            return self.regs.get(self.reg(op), UNKNOWN)
        return self.mem.get(self.addr(op), UNKNOWN)

    def write(self, op, val):
        if op.startswith('%'):
            self.regs[self.reg(op)] = val
        else:
            self.mem[self.addr(op)] = val


def compare(a, b):
    """Flags of a - b: (zero, signed less, unsigned below), None where unknown."""
    if isinstance(a, int) and isinstance(b, int):
        return (a == b, a < b, (a % 2**64) < (b % 2**64))
    if isinstance(a, Ptr) and b == 0:
        return (False, None, False)
    if isinstance(a, Ptr) and isinstance(b, Ptr) and a.obj == b.obj:
        return (a.off == b.off, a.off < b.off, a.off < b.off)
    return None


def cond(flags, cc, where):
    if flags is None:
        raise Stop('%s: condition on an unknown value' % where)
    zero, less, below = flags
    table = {
        'e': lambda: zero, 'z': lambda: zero, 'ne': lambda: not zero, 'nz': lambda: not zero,
        'b': lambda: below, 'ae': lambda: not below, 'be': lambda: below or zero,
        'a': lambda: not below and not zero, 'l': lambda: less, 'ge': lambda: not less,
        'le': lambda: less or zero, 'g': lambda: not less and not zero,
    }
    if cc not in table:
        raise Stop('%s: condition %s' % (where, cc))
    v = table[cc]()
    if v is None:
        raise Stop('%s: condition %s on an unknown value' % (where, cc))
    return v


CCS = ('e', 'z', 'ne', 'nz', 'b', 'ae', 'be', 'a', 'l', 'ge', 'le', 'g', 's', 'ns')
PLAIN = ('endbr64', 'nop', 'push', 'pop', 'ret', 'jmp', 'call', 'mov', 'movabs', 'lea', 'add',
         'sub', 'xor', 'cmp', 'test')


def canon(mnem):
    """The mnemonic without its operand size (llvm-objdump writes movq, cmoveq, movzbl)."""
    if mnem.startswith('cmov'):
        cc = mnem[4:]
        return mnem if cc in CCS else 'cmov' + cc[:-1]
    if mnem[0] == 'j' and mnem[1:] in CCS:
        return mnem
    if mnem.startswith('movz') or mnem.startswith('movs'):
        return mnem[:4]
    if mnem in PLAIN:
        return mnem
    if mnem[-1] in 'bwlq' and mnem[:-1] in PLAIN:
        return mnem[:-1]
    return mnem


def run(insns, regs, mem, func):
    m = Machine(regs, mem)
    at = {ins[0]: i for i, ins in enumerate(insns)}
    i, trace = 0, []
    for _ in range(MAX_STEPS):
        if i >= len(insns):
            raise Stop('ran off the end of %s' % func)
        addr, mnem, ops, rel = insns[i]
        where = '%s+%#x %s %s' % (func, addr - insns[0][0], mnem, ops)
        trace.append('%#x\t%s %s' % (addr - insns[0][0], mnem, ops))
        o = split_ops(ops)
        nxt = i + 1
        mnem = canon(mnem)
        if mnem in ('endbr64', 'nop', 'push', 'pop'):
            pass
        elif mnem == 'ret':
            return trace
        elif mnem == 'jmp':
            if rel == '__x86_return_thunk':
                return trace
            t = int(o[0], 16) if re.match(r'^(0x)?[0-9a-f]+$', o[0]) else None
            if rel is not None or t not in at:
                raise Stop('%s: jump out of the function' % where)
            nxt = at[t]
        elif mnem[0] == 'j':
            if rel is not None:
                raise Stop('%s: conditional jump out of the function' % where)
            if cond(m.flags, mnem[1:], where):
                nxt = at[int(o[0], 16)]
        elif mnem == 'call':
            raise Stop('%s: a call' % where)
        elif mnem.startswith('cmov'):
            if cond(m.flags, mnem[4:], where):
                m.write(o[1], m.read(o[0]))
        elif mnem in ('mov', 'movz', 'movabs'):
            m.write(o[1], m.read(o[0]))
        elif mnem == 'lea':
            p = re.match(r'^(-?0x[0-9a-f]+|-?\d+)?\(%(\w+)\)$', o[0])
            if not p:
                raise Stop('%s: addressing' % where)
            b = m.regs.get(m.reg(p.group(2)), UNKNOWN)
            d = int(p.group(1), 0) if p.group(1) else 0
            m.write(o[1], b + d if isinstance(b, (Ptr, int)) else UNKNOWN)
        elif mnem in ('add', 'sub'):
            a, b = m.read(o[1]), m.read(o[0])
            if isinstance(b, int) and isinstance(a, (Ptr, int)):
                m.write(o[1], a + b if mnem == 'add' else a + (-b))
            else:
                m.write(o[1], UNKNOWN)
            m.flags = None
        elif mnem == 'xor' and o[0] == o[1]:
            m.write(o[1], 0)
            m.flags = (True, False, False)
        elif mnem == 'cmp':
            m.flags = compare(m.read(o[1]), m.read(o[0]))
        elif mnem == 'test':
            a, b = m.read(o[1]), m.read(o[0])
            if o[0] == o[1] or (isinstance(b, int) and b == -1):
                m.flags = None if a is UNKNOWN else (
                    (a == 0) if isinstance(a, int) else False, None, False)
            elif isinstance(a, int) and isinstance(b, int):
                m.flags = ((a & b) == 0, None, False)
            else:
                m.flags = None
        else:
            raise Stop('%s: instruction not modelled' % where)
        i = nxt
    raise Stop('%s: more than %d steps' % (func, MAX_STEPS))


def figures(out, paths):
    """figures.tsv of make bench-shapes from its paths.txt."""
    rows, walk, left = [], None, 0
    for line in open(paths):
        line = line.rstrip('\n')
        m = re.match(r'^== static (\S+), (\w+)\(\): (\d+) instructions, (\d+) register moves$', line)
        if m:
            rows.append(('static.%s.%s.insns' % (m.group(2), m.group(1)), m.group(3)))
            rows.append(('static.%s.%s.moves' % (m.group(2), m.group(1)), m.group(4)))
            continue
        m = re.match(r'^== differs (\S+), (\S+): (\S+)$', line)
        if m:
            rows.append(('differs.%s.%s' % (m.group(1), m.group(2)), m.group(3)))
            continue
        m = re.match(r'^== (\S+), \w+\(\), (\S+): (\d+) instructions$', line)
        if m:
            if left:
                raise Stop('%s: %s: %d instructions missing' % (paths, walk, left))
            walk, left = 'single.%s.%s' % (m.group(2), m.group(1)), int(m.group(3))
            rows.append((walk, m.group(3)))
            continue
        if line.startswith('0x') and walk:
            left -= 1
            if left < 0:
                raise Stop('%s: %s: more instructions than its count' % (paths, walk))
        elif line:
            raise Stop('%s: line not understood: %s' % (paths, line))
    if left:
        raise Stop('%s: %s: %d instructions missing' % (paths, walk, left))
    if not rows:
        raise Stop('%s: no walk' % paths)
    with open(out, 'w') as f:
        for k, v in rows:
            f.write('%s\t%s\n' % (k, v))


def static(obj, func):
    """Instructions of func, and its register-to-register moves."""
    insns = disassemble(obj, func)
    moves = sum(1 for _, mnem, ops, _ in insns
                if canon(mnem) == 'mov' and re.fullmatch(r'%\w+, ?%\w+', ops.replace('\t', ' ')))
    return len(insns), moves


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--static':
        try:
            print('%d %d' % static(sys.argv[2], sys.argv[3]))
        except Stop as e:
            sys.exit('shapes.py: %s' % e)
        return
    if len(sys.argv) == 4 and sys.argv[1] == '--figures':
        try:
            figures(sys.argv[2], sys.argv[3])
        except Stop as e:
            sys.exit('shapes.py: %s' % e)
        return
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    obj, func, offs, st = sys.argv[1:5]
    try:
        off = offsets(offs)
        trace = run(disassemble(obj, func), entry(func, off), state(st, off), func)
    except Stop as e:
        sys.exit('shapes.py: %s: %s: %s' % (obj, st, e))
    print(len(trace))
    print('\n'.join(trace))


if __name__ == '__main__':
    main()
