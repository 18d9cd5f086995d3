#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the c-rust-inline rule keeps fair.o's instrumentation.

With CONFIG_SCHED_RUST_CFS_INLINE, fair.o is not compiled by Kbuild's own
rule: fair.c goes to bitcode with LLVM's passes off, is linked with the
crate's bitcode, and the object is compiled from that (patch 0010). The
sanitizers and coverage that Kbuild enables per object run as LLVM passes,
so the second compile must ask for them again. This script compiles fair.c
the ordinary way, with the very command Kbuild saved for the bitcode (its
.fair.bc.cmd) minus the bitcode options, and compares the two objects:

  - every instrumentation family the configuration implies (KASAN, UBSAN
    handlers, stack protector, return thunks, kcfi, ftrace entries, IBT's
    endbr64, BTI landing pads, pac-ret's return address signing) is in
    the reference object: otherwise the comparison would prove nothing;
  - each family is present in both objects or in neither;
  - every function defined in both calls each family its reference calls
    (landing pads and return signing aside: they follow whether a function
    is address-taken or a leaf, which the linked module's inlining changes);
  - every code-generation flag of the bitcode compile (all but the
    preprocessor's, the input, the output and the bitcode options) is in the
    object compile's saved command (.fair.o.cmd): the per-object flags that
    enable an instrumentation pass (-fsanitize=..., -mllvm -asan-...,
    -fstack-protector..., -mfunction-return=..., -fpatchable-function-entry=,
    -fsanitize-coverage=..., -fprofile-...) reach the compile that runs the
    passes, whether or not this configuration enables any. Per-function
    counts are not compared: the linked module is inlined differently (with
    KASAN, a function's checks move with the code the inliner moves).

The crate (kernel/sched/rust/sched_rust.o, whose bitcode the rule links
into fair.o) is compiled by rustc, which has its own flag for each
instrumentation it supports: for every family the configuration implies
for Rust code (KASAN through RUSTFLAGS_KASAN, kcfi, return thunks, the
patchable entries), the crate's saved rustc command must carry the flag
and its object the family.

  scripts/check-instr.py <build dir> [<flavour name>]
  INSTR_OBJ=<object> ...   compare that object instead of <build>/kernel/sched/fair.o
  INSTR_CRATE=<object> ... check that object instead of the crate's
  INSTR_OBJ_CMD=<.cmd> ... read the object compile's command from that file
  scripts/check-instr.py --print-reference <build dir>
                           print the reference compile (run it in <build dir>)

Exit 0 when the objects agree (or the build does not use the rule: said
so), 1 on a difference.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

SUFFIX = os.environ.get('LLVM_SUFFIX', '-19')

# Families of instrumentation, by the symbols their code references.
FAMILIES = [
    ('KASAN', re.compile(r'^__(asan|hwasan|kasan)_')),
    ('KMSAN', re.compile(r'^__msan_')),
    ('KCSAN', re.compile(r'^__tsan_')),
    ('KCOV', re.compile(r'^__sanitizer_cov_')),
    ('GCOV', re.compile(r'^(llvm_gcda_|llvm_gcov_|__llvm_gcov_)')),
    ('UBSAN', re.compile(r'^__ubsan_handle_')),
    ('stack protector', re.compile(r'^(__stack_chk_fail|__stack_chk_guard|__ref_stack_chk_guard)$')),
    ('return thunk', re.compile(r'^__x86_return_thunk$')),
    ('retpoline', re.compile(r'^__x86_indirect_(call_)?thunk_')),
    ('ftrace', re.compile(r'^(__fentry__|_mcount)$')),
    ('kcfi type id', re.compile(r'^__kcfi_typeid_')),
]
# Families seen as instructions (landing pads, return address signing).
INSNS = [
    ('IBT', re.compile(r'\bendbr64\b')),
    ('BTI', re.compile(r'\bbti\b')),
    ('pac-ret', re.compile(r'\b(paciasp|pacibsp|autiasp|autibsp|retaa|retab)\b')),
]
# Families seen as sections of the object.
SECTIONS = [
    ('kcfi', re.compile(r'^\.kcfi_traps$')),
    ('patchable entries', re.compile(r'^__patchable_function_entries$')),
    ('profile counters', re.compile(r'^__llvm_prf_cnts$')),
]


def config(build):
    c = {}
    for line in open(os.path.join(build, '.config')):
        m = re.match(r'^(CONFIG_\w+)=(.*)$', line)
        if m:
            c[m.group(1)] = m.group(2)
    return c


def expected(c, arch):
    """The families fair.o must carry under this configuration
    (kernel/sched/Makefile opts out of KCOV and KCSAN)."""
    y = lambda k: c.get('CONFIG_' + k) == 'y'
    e = []
    if y('KASAN') and not y('KASAN_HW_TAGS'):
        e.append('KASAN')
    if y('UBSAN') and not y('UBSAN_TRAP'):
        e.append('UBSAN')
    if y('STACKPROTECTOR'):
        e.append('stack protector')
    if arch == 'x86_64' and y('MITIGATION_RETHUNK'):
        e.append('return thunk')
    if y('CFI') or y('CFI_CLANG'):
        e.append('kcfi')
    if y('FUNCTION_TRACER'):
        e.append('ftrace' if arch == 'x86_64' else 'patchable entries')
    if y('KMSAN'):
        e.append('KMSAN')
    if y('GCOV_KERNEL') and y('GCOV_PROFILE_ALL'):
        e.append('GCOV')
    if arch == 'x86_64' and y('X86_KERNEL_IBT'):
        e.append('IBT')
    if arch == 'arm64' and y('ARM64_BTI_KERNEL'):
        e.append('BTI')
    if arch == 'arm64' and y('ARM64_PTR_AUTH_KERNEL'):
        e.append('pac-ret')
    return e


# The families rustc can add to the crate: (family, what enables it in the
# configuration, the rustc flag that asks for it, as a regular expression).
RUST_FAMILIES = [
    ('KASAN', lambda y, arch: y('KASAN_GENERIC'), r'-Zsanitizer=kernel-address\b'),
    ('KASAN', lambda y, arch: y('KASAN_SW_TAGS'), r'-Zsanitizer=kernel-hwaddress\b'),
    ('kcfi', lambda y, arch: y('CFI') or y('CFI_CLANG'), r'-Zsanitizer=kcfi\b'),
    ('return thunk', lambda y, arch: arch == 'x86_64' and y('MITIGATION_RETHUNK'),
     r'-Zfunction-return=thunk-extern\b'),
    ('patchable entries', lambda y, arch: arch == 'arm64' and y('FUNCTION_TRACER'),
     r'-Zpatchable-function-entry\b'),
    ('IBT', lambda y, arch: arch == 'x86_64' and y('X86_KERNEL_IBT'), r'-Zcf-protection=branch\b'),
    ('BTI', lambda y, arch: arch == 'arm64' and y('ARM64_BTI_KERNEL'),
     r'-Zbranch-protection=\S*\bbti\b'),
    ('pac-ret', lambda y, arch: arch == 'arm64' and y('ARM64_PTR_AUTH_KERNEL'),
     r'-Zbranch-protection=\S*\bpac-ret\b'),
]


def check_crate(build, c, arch, label):
    """The crate's instrumentation: a list of problems (and prints what it found)."""
    y = lambda k: c.get('CONFIG_' + k) == 'y'
    obj = os.environ.get('INSTR_CRATE') or os.path.join(build, 'kernel/sched/rust/sched_rust.o')
    cmdf = os.path.join(build, 'kernel/sched/rust/.sched_rust.o.cmd')
    if not os.path.exists(obj) or not os.path.exists(cmdf):
        return [f'the crate\'s object or its saved command is missing ({obj}, {cmdf})']
    cmd = open(cmdf).readline()
    per_fn, sec = families_of(obj)
    have = set().union(*per_fn.values()) | sec if per_fn else sec
    problems, exp = [], []
    for fam, enabled, flag in RUST_FAMILIES:
        if not enabled(y, arch):
            continue
        exp.append(fam)
        shown = flag.replace('\\S*', '...').replace('\\b', '')
        if not re.search(flag, cmd):
            problems.append(f'crate: the configuration enables {fam} but rustc was not given {shown}')
        elif fam not in have:
            problems.append(f'crate: rustc was given {shown} but {os.path.basename(obj)} has no {fam}')
    counts = ' '.join(f'{f}:{sum(1 for v in per_fn.values() if f in v)}' for f, _ in FAMILIES + INSNS
                      if f in have)
    print(f'check-instr: {label} ({arch}) crate {os.path.basename(obj)}: expected by the configuration: '
          f'{", ".join(exp) or "none"}; present: {", ".join(sorted(have)) or "none"}; '
          f'functions with each family: {counts or "none"} of {len(per_fn)}')
    return problems


def families_of(obj):
    """({function: set of families its code references}, set of section families)."""
    dis = subprocess.run(['llvm-objdump' + SUFFIX, '-dr', '--no-show-raw-insn', obj],
                         capture_output=True, text=True, check=True).stdout
    per_fn, fn = {}, None
    for line in dis.splitlines():
        m = re.match(r'^[0-9a-f]+ <(.+)>:$', line)
        # A local label (.Ltmp12) inside a function is not a function; a
        # function the linked module renamed (foo.llvm.123) is still foo.
        if m and not m.group(1).startswith('.L'):
            fn = re.sub(r'\.llvm\.\d+$', '', m.group(1))
            per_fn.setdefault(fn, set())
            continue
        if fn is not None:
            for name, rx in INSNS:
                if rx.search(line.split(':', 1)[-1]):
                    per_fn[fn].add(name)
        m = re.search(r'\sR_\w+\s+([^\s+-]+)', line)
        if m and fn is not None:
            for name, rx in FAMILIES:
                if rx.search(m.group(1)):
                    per_fn[fn].add(name)
    secs = subprocess.run(['llvm-readelf' + SUFFIX, '-SW', obj],
                          capture_output=True, text=True, check=True).stdout
    sec_fams = set()
    for line in secs.splitlines():
        m = re.match(r'^\s*\[\s*\d+\]\s+(\S+)', line)
        if m:
            for name, rx in SECTIONS:
                if rx.search(m.group(1)):
                    sec_fams.add(name)
    # Undefined symbols no relocation in a function names (data relocations).
    syms = subprocess.run(['llvm-nm' + SUFFIX, '-u', obj],
                          capture_output=True, text=True, check=True).stdout.split()
    for s in syms:
        for name, rx in FAMILIES:
            if rx.search(s):
                sec_fams.add(name)
    return per_fn, sec_fams


def saved_command(path):
    """The tokens of a Kbuild .cmd file's saved command."""
    first = open(path).readline()
    m = re.match(r'^savedcmd_\S+ := (.*)$', first.rstrip('\n'))
    if not m:
        sys.exit(f'check-instr: {path}: no saved command')
    return shlex.split(m.group(1).replace('$(pound)', '#').replace('$$', '$'))


def codegen_flags(toks):
    """A compile's flags as units (-mllvm X and -Xclang X joined), without
    the compiler, the preprocessor's flags, the input, the output and the
    bitcode options."""
    out, i = [], 1
    while i < len(toks):
        t = toks[i]
        if t in ('-mllvm', '-Xclang') and i + 1 < len(toks):
            unit, i = f'{t} {toks[i + 1]}', i + 2
        elif t in ('-o', '-include', '-isystem', '-MF', '-MT'):
            i += 2
            continue
        else:
            unit, i = t, i + 1
        if (unit == '-Xclang -disable-llvm-passes' or unit in ('-emit-llvm', '-c', '-nostdinc')
                or re.match(r'^-(I|D|U|Wp,|fmacro-prefix-map=)', unit) or not unit.startswith('-')):
            continue
        out.append(unit)
    return out


INSTR_FLAG = re.compile(r'^(-fsanitize|-mllvm -(asan|hwasan|tsan|msan|sanitizer|kasan)|-fstack-protector'
                        r'|-mstack-protector|-mfunction-return|-mindirect-branch|-fpatchable-function-entry'
                        r'|-fprofile|-fcoverage|-ftest-coverage|-pg|-mfentry|-mrecord-mcount|-fcf-protection'
                        r'|-mbranch-protection|-fsanitize-coverage|-fzero-call-used-regs)')


# What the inline rule's object compile adds to the flags (patch 0010):
# Kbuild's CC_FLAGS_RUST_INLINE_HELPERS (the trap options rustc's code
# generation uses, for the Rust code in the module) and the silenced
# warning about linking modules of two target triples.
OBJ_ONLY = {'-mllvm -trap-unreachable', '-mllvm -no-trap-after-noreturn', '-Wno-override-module'}


def check_flags(build):
    """The flags of fair.c's bitcode compile missing from fair.o's compile,
    and the flags fair.o's compile has beyond them and the rule's own (one
    such, -fno-sanitize=..., could undo an instrumentation): (problems,
    number of flags compared, the instrumentation flags among them)."""
    bc = codegen_flags(saved_command(os.path.join(build, 'kernel/sched/.fair.bc.cmd')))
    ocmd = os.environ.get('INSTR_OBJ_CMD') or os.path.join(build, 'kernel/sched/.fair.o.cmd')
    obj = codegen_flags(saved_command(ocmd))
    if not bc:
        return ['flags: no code-generation flag in the bitcode compile\'s saved command'], 0, []
    missing = [f for f in bc if f not in set(obj)]
    extra = [f for f in obj if f not in set(bc) and f not in OBJ_ONLY]
    return ([f'flags: {f} is in fair.c\'s bitcode compile, not in the compile of fair.o ({ocmd})'
             for f in missing] +
            [f'flags: {f} is in the compile of fair.o ({ocmd}) only, not in fair.c\'s bitcode compile'
             for f in extra], len(bc), [f for f in bc if INSTR_FLAG.match(f)])


def reference_command(build):
    """Kbuild's saved command for fair.bc, as the ordinary one-step compile."""
    toks = saved_command(os.path.join(build, 'kernel/sched/.fair.bc.cmd'))
    out, i = [], 0
    while i < len(toks):
        t = toks[i]
        if t == '-Xclang' and i + 1 < len(toks) and toks[i + 1] == '-disable-llvm-passes':
            i += 2
            continue
        if t == '-emit-llvm' or t.startswith('-Wp,-MMD'):
            i += 1
            continue
        if t == '-o':
            i += 2
            continue
        out.append(t)
        i += 1
    for t in ('-disable-llvm-passes', '-emit-llvm'):
        if t in out:
            sys.exit(f'check-instr: could not remove {t} from the saved command')
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1] == '--print-reference':
        print(shlex.join(reference_command(sys.argv[2])))
        return 0
    build = sys.argv[1]
    label = sys.argv[2] if len(sys.argv) > 2 else os.path.basename(build)
    c = config(build)
    arch = 'x86_64' if c.get('CONFIG_X86_64') == 'y' else 'arm64' if c.get('CONFIG_ARM64') == 'y' else 'other'
    if c.get('CONFIG_SCHED_RUST_CFS_INLINE') != 'y':
        print(f'check-instr: {label} does not build fair.o with the c-rust-inline rule '
              '(CONFIG_SCHED_RUST_CFS_INLINE is off): Kbuild\'s own rule, nothing to compare')
        return 0
    inline = os.environ.get('INSTR_OBJ') or os.path.join(build, 'kernel/sched/fair.o')
    with tempfile.TemporaryDirectory() as tmp:
        ref = os.path.join(tmp, 'fair.ref.o')
        cmd = reference_command(build) + ['-o', ref]
        r = subprocess.run(cmd, cwd=build, capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stderr[-3000:])
            sys.exit(f'check-instr: the reference compile of fair.c failed (exit {r.returncode})')
        ref_fn, ref_sec = families_of(ref)
        inl_fn, inl_sec = families_of(inline)

    def fams(per_fn, sec):
        return set().union(*per_fn.values()) | sec

    ref_all, inl_all = fams(ref_fn, ref_sec), fams(inl_fn, inl_sec)
    problems = []
    exp = expected(c, arch)
    for f in exp:
        if f not in ref_all:
            problems.append(f'{f}: the configuration enables it but the reference object has none '
                            '(the comparison cannot see it)')
    for f in sorted(ref_all - inl_all):
        problems.append(f'{f}: in fair.c compiled by Kbuild\'s rule, missing from the inline rule\'s fair.o')
    for f in sorted(inl_all - ref_all):
        problems.append(f'{f}: in the inline rule\'s fair.o only')
    both = sorted(set(ref_fn) & set(inl_fn))
    lost = 0
    # A landing pad or a signed return depends on whether the function is
    # address-taken or a leaf, which the linked module's inlining changes
    # (entity_eligible() becomes a leaf): those families are compared per
    # object and by their flags, not per function.
    per_insn = {f for f, _ in INSNS}
    for fn in both:
        miss = ref_fn[fn] - inl_fn[fn] - per_insn
        if miss:
            lost += 1
            if lost <= 20:
                problems.append(f'{fn}(): {", ".join(sorted(miss))} in the reference, not in the inline object')
    counts = ' '.join(f'{f}:{sum(1 for s in ref_fn.values() if f in s)}/{sum(1 for s in inl_fn.values() if f in s)}'
                      for f, _ in FAMILIES + INSNS if f in ref_all | inl_all)
    print(f'check-instr: {label} ({arch}) fair.o: expected by the configuration: {", ".join(exp) or "none"}; '
          f'present (reference/inline): {", ".join(sorted(ref_all)) or "none"} / {", ".join(sorted(inl_all)) or "none"}')
    print(f'check-instr: functions with each family (reference/inline): {counts or "none"}; '
          f'{len(both)} functions in both objects, {lost} lost a family')
    fproblems, nflags, instr = check_flags(build)
    nmissing = sum(1 for p in fproblems if 'not in the compile of fair.o' in p)
    print(f'check-instr: the compile of fair.o has {nflags - nmissing} of the {nflags} '
          f'code-generation flags of fair.c\'s bitcode compile; the instrumentation ones: '
          f'{" ".join(instr) or "none"}')
    problems += fproblems
    problems += check_crate(build, c, arch, label)
    for p in problems:
        print(f'check-instr: FAIL {p}')
    if problems:
        return 1
    print('check-instr: PASS: the inline rule kept every instrumentation family of fair.o and '
          'every code-generation flag, and the crate carries every family the configuration asks '
          'of rustc')
    return 0


if __name__ == '__main__':
    sys.exit(main())
