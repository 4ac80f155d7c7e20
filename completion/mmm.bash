# bash completion for mmm: the commands, each command's options, the values
# of the options that take one of a few words, and files of the kind each
# place reads or writes (programs: .xml .stg .json .dax .dot; machine files:
# .xml; runs and costs: .csv; pictures: .svg .png .pdf).  Installed as
# share/bash-completion/completions/mmm; to try it without installing:
#     source completion/mmm.bash
# tests/completion_check.py checks that it offers every command and every
# option that `mmm CMD --help` lists.

_mmm_commands="analyze optimize compare simulate scale roofline render report convert fit calibrate
  profile"

# The options of every command that reads a program.
_mmm_common="-D -p --machine --format --launch --threads --input-format --time-unit
  --negative-cost --cost-attr --costs --max-file-bytes --max-kernels --max-edges
  --max-params --max-expr-length --max-index-repeat --progress --help"

# The options of command $1 (profile: of its subcommand $2).
_mmm_options()
{
    case $1 in
        analyze) echo "$_mmm_common --max-rows --totals --model" ;;
        optimize) echo "$_mmm_common --param --from --to --step --values --objective
                       --baseline --plot --max-points --max-rows" ;;
        compare) echo "$_mmm_common --corollary --time --model" ;;
        simulate) echo "$_mmm_common --policy --seed --gantt --trace --max-launches" ;;
        scale) echo "$_mmm_common --p --policy --seed --plot --measured --max-launches" ;;
        roofline) echo "$_mmm_common -o --output" ;;
        render) echo "$_mmm_common -o --output --level --color --condense --view --rankdir --max-nodes --dpi" ;;
        report) echo "$_mmm_common -o --output --color --max-nodes --sweep --no-sweep
                     --no-simulation" ;;
        convert) echo "$_mmm_common -o --output" ;;
        fit) echo "$_mmm_common --data --fit --fix --name -o --output --plot" ;;
        calibrate) echo "-o --output --format --device --quick --help" ;;
        profile)
            case $2 in
                build) echo "-o --output --skeleton --name --max-file-bytes --help" ;;
                run) echo "-o --output --skeleton --name --max-file-bytes --param --keep
                           --ncu --samples --help" ;;
                metrics) echo "--launch --help" ;;
                *) echo "--help" ;;
            esac ;;
    esac
}

# COMPREPLY: the folders and the files whose extension is one of $1
# ("xml|stg": a pattern), ignoring case.
_mmm_files()
{
    local f IFS=$'\n'
    COMPREPLY=()
    for f in $(compgen -f -- "$cur"); do
        if [[ -d $f || ${f,,} == *.@($1) ]]; then
            COMPREPLY+=("$f")
        fi
    done
    compopt -o filenames 2>/dev/null
}

_mmm()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local cmd=${COMP_WORDS[1]} sub=${COMP_WORDS[2]} words
    # --name=VALUE: bash splits it at '='
    if [[ $cur == = ]]; then
        cur=""
    elif [[ $prev == = && $COMP_CWORD -ge 3 ]]; then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    COMPREPLY=()
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$_mmm_commands --help --version" -- "$cur"))
        return
    fi
    if [[ $cmd == profile && $COMP_CWORD -eq 2 ]]; then
        COMPREPLY=($(compgen -W "build run metrics --help" -- "$cur"))
        return
    fi
    if [[ $cmd == profile && $sub == run ]]; then
        local i
        for ((i = 3; i < COMP_CWORD; i++)); do
            if [[ ${COMP_WORDS[i]} == -- ]]; then # the command to profile
                COMPREPLY=($(compgen -c -f -- "$cur"))
                return
            fi
        done
    fi
    case $prev in
        --format)
            case $cmd in
                render) words="svg png pdf dot" ;;
                fit | calibrate) words="text json" ;;
                *) words="text json csv" ;;
            esac ;;
        --model) words="mmm tmm balance time all" ;;
        --objective) words="overhead bound corollary time" ;;
        --policy) words="fifo lifo critical-path most-blocks fewest-blocks longest-block
                         shortest-block random all" ;;
        --level) words="kernel block" ;;
        --color) words="auto overhead work span cost type none" ;;
        --condense) words="auto always never" ;;
        --view) words="all critical" ;;
        --rankdir) words="TB LR BT RL" ;;
        --launch) words="stream graph" ;;
        --threads) words="auto 1 2" ;;
        --input-format) words="auto mmm stg wfcommons dax dot cuda-dot" ;;
        --time-unit) words="s ms us ns" ;;
        --negative-cost) words="error zero" ;;
        --samples) words="all" ;;
        --machine | --skeleton) _mmm_files xml; return ;;
        --data | --costs | --measured) _mmm_files csv; return ;;
        --gantt | --plot) _mmm_files 'svg|png|pdf'; return ;;
        --trace) _mmm_files json; return ;;
        --keep) COMPREPLY=($(compgen -d -- "$cur")); compopt -o filenames 2>/dev/null; return ;;
        --ncu) COMPREPLY=($(compgen -c -f -- "$cur")); return ;;
        -o | --output)
            case $cmd in
                render) _mmm_files 'svg|png|pdf|dot' ;;
                roofline) _mmm_files 'svg|png|pdf' ;;
                report) _mmm_files 'html' ;;
                *) _mmm_files xml ;;
            esac
            return ;;
        -D | -p | --p | --from | --to | --step | --values | --baseline | --param | --sweep | \
        --seed | --max-* | --dpi | --device | --name | --fit | --fix | --cost-attr)
            return ;; # a value of the user's
    esac
    if [[ -n $words ]]; then
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
    elif [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_mmm_options "$cmd" "$sub")" -- "$cur"))
    elif [[ $cmd == profile && $sub == build ]]; then
        _mmm_files csv
    elif [[ $cmd != calibrate && $cmd != profile ]]; then
        _mmm_files 'xml|stg|json|dax|dot|gv'
    fi
}

complete -F _mmm mmm
