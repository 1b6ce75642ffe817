import re, subprocess, sys, os
os.chdir('/work/main')
files = subprocess.check_output(['grep','-rl','await import(','test','clients/cli/test','clients/typescript/test']).decode().split()
pat = re.compile(r"^(\s*)const \{ ([^}]+) \} = (?:\()?await import\(('[^']+')\)(?:\) as [^;]+)?;\n", re.M)
report = []
for f in files:
    s = open(f).read()
    found = pat.findall(s)
    if not found: continue
    # collect top-level imports per module
    adds = {}
    for indent, names, mod in found:
        names = [n.strip() for n in names.split(',') if n.strip()]
        if any(':' in n for n in names):  # renamed destructuring; skip
            continue
        adds.setdefault(mod, [])
        for n in names:
            if n not in adds[mod]: adds[mod].append(n)
    if not adds: continue
    def drop(m):
        names = [n.strip() for n in m.group(2).split(',') if n.strip()]
        if any(':' in n for n in names): return m.group(0)
        return ''
    s2 = pat.sub(drop, s)
    lines = s2.split('\n')
    idx = max([i for i,l in enumerate(lines) if l.startswith('import ')] or [-1])
    j = idx
    while j >= 0 and not lines[j].rstrip().endswith(';'): j += 1
    new_imports = [f"import {{ {', '.join(names)} }} from {mod};" for mod, names in adds.items()]
    lines[j+1:j+1] = new_imports
    open(f,'w').write('\n'.join(lines))
    report.append((f, list(adds.keys())))
for r in report: print(r)
