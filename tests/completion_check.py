#!/usr/bin/env python3
"""tests/completion_check.py MMM COMPLETION_DIR: the shell completions offer
every command `mmm --help` lists and, for each command, every option its
`--help` lists (its synopsis and its option lines) and every option it
accepts (the list `mmm CMD --no-such-option` prints).

bash (completion/mmm.bash) is run: its function is called with the words of
a command line in a scratch folder holding files of each kind, and what it
offers is compared with the help; the values of --format, --policy, ... and
the kinds of files it offers for a program, --machine, --data, --gantt and
-o are checked too.  zsh (completion/_mmm), when zsh is installed: `zsh -n`,
then its function is run with stubs of zsh's completion functions that print
what they are given: the commands, and each command's option specs.
"""
import os
import re
import subprocess
import sys
import tempfile

OPT = r'--?[A-Za-z][\w-]*'


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def help_options(mmm, cmd):
    """The options --help of cmd lists: in its synopsis (up to the first
    blank line) and at the head of its option lines."""
    lines = run([mmm, cmd, '--help']).stdout.split('\n')
    opts, i = set(), 0
    while i < len(lines) and lines[i].strip():
        opts |= set(re.findall(r'(?<![\w-])(' + OPT + ')', lines[i]))
        i += 1
    for line in lines[i:]:
        m = re.match(r'^ {1,4}((?:' + OPT + r'(?:, )?)+)', line)
        if m:
            opts |= set(re.findall(OPT, m.group(1)))
    return opts


def accepted_options(mmm, args):
    """The options the command accepts: the list after an unknown one."""
    err = run([mmm] + args + ['--no-such-option-zz']).stderr
    m = re.search(r'its options:(.*?)\nTry ', err, re.S)
    if not m:
        sys.exit(f'mmm {" ".join(args)}: no option list after an unknown option:\n{err}')
    return set(m.group(1).split())


def bash_complete(script, words, cwd):
    """What _mmm offers for the command line `words` (the last is the word
    being completed), one item per line."""
    arr = ' '.join("'" + w.replace("'", "'\\''") + "'" for w in words)
    prog = (f'source {script}\nCOMP_WORDS=({arr})\nCOMP_CWORD={len(words) - 1}\n'
            '_mmm\nprintf "%s\\n" "${COMPREPLY[@]}"\n')
    r = run(['bash', '--norc', '--noprofile', '-c', prog], cwd=cwd)
    if r.returncode:
        sys.exit(f'bash completion failed for {words}: {r.stderr}')
    return set(x for x in r.stdout.split('\n') if x)


ZSH_STUBS = r"""
_arguments() {
  if [[ $1 == -C ]]; then
    if (( CURRENT == 2 )); then state=command; else state=argument; shift words; (( CURRENT-- )); fi
    return 0
  fi
  print -rl -- "$@"
}
_describe() { print -rl -- "${(@P)${@[-1]}}"; }
_values() { shift; print -rl -- "$@"; }
_files() { :; }
"""


def zsh_complete(script, words):
    """What _mmm hands zsh's completion functions for the command line
    `words` (the last is the word being completed), asked twice (an
    autoloaded #compdef file runs its body once, then its function)."""
    arr = ' '.join("'" + w.replace("'", "'\\''") + "'" for w in words)
    prog = (ZSH_STUBS + f'fpath=({os.path.dirname(script)} $fpath); autoload -Uz _mmm\n'
            f'words=(mmm x); CURRENT=2\n_mmm >/dev/null\n'
            f'words=({arr}); CURRENT={len(words)}\n_mmm\n')
    r = run(['zsh', '-f', '-c', prog])
    if r.returncode:
        sys.exit(f'zsh completion failed for {words}: {r.stderr}')
    return [x for x in r.stdout.split('\n') if x]


def main():
    mmm, comp = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    bash, zsh = os.path.join(comp, 'mmm.bash'), os.path.join(comp, '_mmm')
    main_help = run([mmm, '--help']).stdout
    commands = re.findall(r'^  (\w+) ', main_help.split('commands:')[1], re.M)
    assert len(commands) >= 11, main_help
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for f in ['p.xml', 'g.stg', 'w.json', 'd.dax', 'x.dot', 'r.csv', 'pic.svg', 'pic.png',
                  'page.html', 'notes.txt', 'UP.XML']:
            open(os.path.join(tmp, f), 'w').close()
        os.mkdir(os.path.join(tmp, 'sub'))
        # ---- bash: the commands, the options, values and files
        got = bash_complete(bash, ['mmm', ''], tmp)
        bad += [f'bash: command {c} not offered' for c in commands if c not in got]
        for c in commands:
            subs = ['build', 'run', 'metrics'] if c == 'profile' else [None]
            offered, accepted = set(), set()
            for s in subs:
                pre = ['mmm', c] + ([s] if s else [])
                offered |= bash_complete(bash, pre + ['-'], tmp)
                if s != 'metrics':
                    accepted |= accepted_options(mmm, pre[1:] + (['x.csv'] if s == 'build'
                                                                  else []))
            need = help_options(mmm, c) | accepted
            bad += [f'bash: mmm {c}: option {o} not offered' for o in sorted(need - offered)]
        checks = [
            (['mmm', 'analyze', ''], {'p.xml', 'g.stg', 'w.json', 'd.dax', 'x.dot', 'UP.XML',
                                      'sub'}),
            (['mmm', 'analyze', '--machine', ''], {'p.xml', 'UP.XML', 'sub'}),
            (['mmm', 'fit', '--data', ''], {'r.csv', 'sub'}),
            (['mmm', 'simulate', 'p.xml', '--gantt', ''], {'pic.svg', 'pic.png', 'sub'}),
            (['mmm', 'report', 'p.xml', '-o', ''], {'page.html', 'sub'}),
            (['mmm', 'render', 'p.xml', '--output', 'p'], {'pic.svg', 'pic.png', 'p.xml'} -
             {'p.xml'}),
            (['mmm', 'profile', 'build', ''], {'r.csv', 'sub'}),
            (['mmm', 'analyze', '--format', ''], {'text', 'json', 'csv'}),
            (['mmm', 'analyze', '--format', '=', 'j'], {'json'}),
            (['mmm', 'render', '--format', ''], {'svg', 'png', 'pdf', 'dot'}),
            (['mmm', 'simulate', '--policy', 'l'], {'lifo', 'longest-block'}),
            (['mmm', 'optimize', '--objective', ''], {'overhead', 'bound', 'corollary',
                                                      'time'}),
            (['mmm', 'analyze', '--input-format', 'w'], {'wfcommons'}),
            (['mmm', 'profile', ''], {'build', 'run', 'metrics', '--help'}),
        ]
        for words, want in checks:
            got = bash_complete(bash, words, tmp)
            if got != want:
                bad.append(f'bash: {" ".join(words)}<TAB> offers {sorted(got)}, '
                           f'not {sorted(want)}')
    # ---- zsh: its syntax, then _mmm run with stubs of zsh's completion
    # functions that print what they are given (_arguments its specs)
    if run(['sh', '-c', 'command -v zsh']).returncode == 0:
        r = run(['zsh', '-n', zsh])
        if r.returncode:
            bad.append(f'zsh -n {zsh}: {r.stderr}')
        names = zsh_complete(zsh, ['mmm', ''])
        bad += [f'zsh: command {c} not offered' for c in commands
                if not any(n.startswith(c + ':') for n in names)]
        for c in commands:
            offered, accepted = set(), set()
            for s in (['build', 'run', 'metrics'] if c == 'profile' else [None]):
                specs = zsh_complete(zsh, ['mmm', c] + ([s] if s else []) + [''])
                for spec in specs:
                    offered |= set(re.findall(r'^(?:\([^)]*\))?\*?(' + OPT + r')[=+\[]', spec))
                if s != 'metrics':
                    accepted |= accepted_options(mmm, [c] + ([s, 'x.csv'] if s == 'build' else
                                                             [s] if s else []))
            need = help_options(mmm, c) | accepted
            bad += [f'zsh: mmm {c}: option {o} not offered' for o in sorted(need - offered)]
    else:
        print('completion: zsh is not installed: its completion is not checked')
    for b in bad:
        print(b)
    print(f'completion: {len(commands)} commands checked in bash and zsh; '
          f'{len(bad)} problems')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
