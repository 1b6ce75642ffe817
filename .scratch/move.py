#!/usr/bin/env python3
# Usage: move.py old=new ... (paths relative to repo root). Moves with git mv and rewrites imports.
import os, re, subprocess, sys
root = '/work/main'
os.chdir(root)
moves = dict(arg.split('=') for arg in sys.argv[1:])
files = [f for f in subprocess.check_output(['git', 'ls-files', '*.ts', '*.js']).decode().split('\n') if f and os.path.exists(f)]
spec = re.compile(r"""((?:from|import)\s*\(?\s*)(['"])([^'"]+)\2""")

def resolve(importer, s):
    if s.startswith('#shared/'): return 'shared/' + s[len('#shared/'):]
    if s.startswith('#infra/'): return 'infra/' + s[len('#infra/'):]
    if s.startswith('.'): return os.path.normpath(os.path.join(os.path.dirname(importer), s))
    return None

def render(importer, target, original):
    # keep the original style: '#shared/..' stays aliased; relative stays relative unless shared-cross-folder
    if original.startswith('#shared/'): return '#shared/' + target[len('shared/'):]
    if original.startswith('#infra/'): return '#infra/' + target[len('infra/'):]
    imp_dir = os.path.dirname(importer)
    if importer.startswith('shared/') and target.startswith('shared/') and os.path.dirname(target) != imp_dir:
        return '#shared/' + target[len('shared/'):]
    rel = os.path.relpath(target, imp_dir)
    return rel if rel.startswith('.') else './' + rel

new_of = {f: moves.get(f, f) for f in files}
for old, new in moves.items():
    os.makedirs(os.path.dirname(new), exist_ok=True)
    subprocess.check_call(['git', 'mv', old, new])
for f in files:
    path_now = new_of[f]
    s = open(path_now).read()
    def fix(m):
        target = resolve(f, m.group(3))
        if target is None: return m.group(0)
        moved_target = moves.get(target, target)
        if moved_target == target and path_now == f: return m.group(0)
        out = render(path_now, moved_target, m.group(3))
        return m.group(1) + m.group(2) + out + m.group(2)
    n = spec.sub(fix, s)
    if n != s: open(path_now, 'w').write(n)
# mentions in comments/docs: replace old paths with new
texts = [f for f in subprocess.check_output(['git', 'ls-files']).decode().split('\n') if f.endswith(('.ts', '.md', '.js')) and os.path.exists(f)]
for f in texts:
    s = open(f).read(); n = s
    for old, new in moves.items():
        n = re.sub(r'(?<![\w/-])' + re.escape(old), new, n)
        o2 = old[len('shared/'):] if old.startswith('shared/') else None
        if o2: n = re.sub(r'(?<![\w/-])' + re.escape(o2) + r'\b', new[len('shared/'):], n)
    if n != s: open(f, 'w').write(n)
