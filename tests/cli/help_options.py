#!/usr/bin/python3
"""Every option the command line's parsers accept appears in the usage
lines of the verb that takes it (the head of `rxc VERB --help`, which
`rxc --help` prints as the verb's synopsis: both are checked), and the
global options in `rxc --help`.

The options are read from the parsers' source, cli/*.c: each string literal
that spells an option ("-o", "--format", "--print-after=") inside the
function that parses a verb's arguments.  So adding an option to a parser
and forgetting its help fails here.  Exit 0 when every option is listed;
1 with one line per option missing.
"""
import os
import re
import subprocess
import sys

RXC = os.environ.get("RXC", "build/rxc")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

# verb -> the parser functions (file, function) whose option literals it takes;
# None: the global options, listed by `rxc --help`.
PARSERS = {
    None: [("cli/main.c", "load_config"), ("cli/main.c", "main")],
    "check": [("cli/main.c", "files_only")],  # files only: no option
    "equal": [("cli/main.c", "files_only")],
    "opt": [("cli/main.c", "parse_opt_args")],
    "run": [("cli/run.c", "parse_run_args")],
    "equiv": [("cli/run.c", "is_equiv_option"), ("cli/run.c", "parse_equiv_args")],
    "plan": [("cli/plan.c", "plan_option"), ("cli/plan.c", "parse_plan_args")],
    "compile": [("cli/compile.c", "parse_compile_args")],
    "import": [("cli/import.c", "parse_import_args")],
    "list": [("cli/list.c", "parse_list_args")],
}

OPTION = re.compile(r'"(--?[A-Za-z][-A-Za-z0-9]*=?)"')


def function_body(text, name):
    """The text of C function name's definition (return type on its own
    line, as STYLE.md has it), up to the closing brace in column 0."""
    m = re.search(r"^%s\(" % re.escape(name), text, re.M)
    if not m:
        sys.exit("help_options.py: no function %s" % name)
    end = text.find("\n}\n", m.end())
    return text[m.start():end]


def accepted(verb):
    found = set()
    for path, fn in PARSERS[verb]:
        with open(os.path.join(ROOT, path)) as f:
            found |= set(OPTION.findall(function_body(f.read(), fn)))
    return found


def help_text(verb):
    args = [RXC, "--help"] if verb is None else [RXC, verb, "--help"]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("%s: exit %d" % (" ".join(args), r.returncode))
    return r.stdout


def synopsis(help):
    """The usage lines at the head of a verb's help."""
    lines = []
    for line in help.splitlines():
        if not (line.startswith("usage: ") or line.startswith(" ")):
            break
        lines.append(line)
    return "\n".join(lines)


def listed(option, text):
    """option as a word of text ("-o" not inside "--output")."""
    return re.search(r"(?<![-\w])%s(?![-\w])" % re.escape(option.rstrip("=")), text) is not None


def main():
    missing = []
    top = help_text(None)
    for verb in PARSERS:
        opts = accepted(verb)
        if not opts and verb not in ("check", "equal"):
            missing.append("%s: no option found in its parser (is PARSERS stale?)" % verb)
        if verb is None:
            places = [("rxc --help", top)]
        else:
            usage = synopsis(help_text(verb))
            places = [("the usage lines of rxc %s --help" % verb, usage)]
            body = "\n".join("  " + line[len("usage: rxc "):] for line in usage.splitlines())
            if body not in top:
                missing.append("rxc --help does not show the usage lines of rxc %s --help" % verb)
        for where, text in places:
            for o in sorted(opts):
                if not listed(o, text):
                    missing.append("%s do not list %s" % (where, o))
    for line in missing:
        print(line)
    print("%d verbs, %s" % (len(PARSERS), "every option listed" if not missing
                             else "%d options missing from --help" % len(missing)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
