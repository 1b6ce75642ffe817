import re, subprocess, os
os.chdir('/work/main')
files = subprocess.check_output(['grep','-rl','await import(','test','clients/cli/test','clients/typescript/test']).decode().split()
reassign = re.compile(r"^\s*\(\{ ([^}]+) \} = await import\(('[^']+')\)\);\n", re.M)
whole = re.compile(r"^\s*const (\w+) = await import\(('[^']+')\);\n", re.M)
inline = re.compile(r"\(await import\(('[^']+')\)\)\.(\w+)")
for f in files:
    s = open(f).read()
    named = {}; spaces = {}
    def add(mod, name):
        named.setdefault(mod, [])
        if name not in named[mod]: named[mod].append(name)
    def r1(m):
        names = [n.strip() for n in m.group(1).split(',')]
        if any(':' in n for n in names): return m.group(0)
        for n in names: add(m.group(2), n)
        return ''
    s2 = reassign.sub(r1, s)
    def r2(m):
        spaces[m.group(2)] = m.group(1); return ''
    s2 = whole.sub(r2, s2)
    def r3(m):
        add(m.group(1), m.group(2)); return m.group(2)
    s2 = inline.sub(r3, s2)
    if s2 == s: continue
    # drop top-level let declarations of reassigned names
    for mod, names in named.items():
        for n in names:
            s2 = re.sub(r"^let " + re.escape(n) + r"!?: [^;\n]*;\n", '', s2, flags=re.M)
    lines = s2.split('\n')
    idx = max([i for i,l in enumerate(lines) if l.startswith('import ')] or [-1])
    j = idx
    while j >= 0 and not lines[j].rstrip().endswith(';'): j += 1
    new = [f"import {{ {', '.join(ns)} }} from {mod};" for mod, ns in named.items()]
    new += [f"import * as {v} from {mod};" for mod, v in spaces.items()]
    lines[j+1:j+1] = new
    open(f, 'w').write('\n'.join(lines))
    print(f)
