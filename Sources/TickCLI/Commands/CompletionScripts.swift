/// The completion scripts of `tick completions`. Each asks `tick __complete -- WORDS...` for the
/// candidates of the word under the cursor: lines of a word, a tab and a description; the line
/// `:files` means "complete a file name".
enum CompletionScripts {
    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": return bash
        case "zsh": return zsh
        case "fish": return fish
        default: return nil
        }
    }

    static let bash = """
        # bash completion for tick (tick completions bash)
        _tick() {
            local cur=${COMP_WORDS[COMP_CWORD]} line
            COMPREPLY=()
            while IFS= read -r line; do
                if [[ $line == :files ]]; then
                    local IFS=$'\\n'
                    COMPREPLY+=( $(compgen -f -- "$cur") )
                    compopt -o filenames 2>/dev/null
                else
                    COMPREPLY+=( "${line%%$'\\t'*}" )
                fi
            done < <(tick __complete -- "${COMP_WORDS[@]:1:COMP_CWORD-1}" "$cur" 2>/dev/null)
        }
        complete -F _tick tick

        """

    static let zsh = """
        #compdef tick
        # zsh completion for tick (tick completions zsh)
        _tick() {
            local -a lines values descriptions
            local line ret=1
            lines=("${(@f)$(tick __complete -- "${(@)words[2,CURRENT-1]}" "${words[CURRENT]}" 2>/dev/null)}")
            for line in "${lines[@]}"; do
                [[ -z $line ]] && continue
                if [[ $line == :files ]]; then
                    _files && ret=0
                    continue
                fi
                values+=("${line%%$'\\t'*}")
                if [[ $line == *$'\\t'* ]]; then descriptions+=("${line%%$'\\t'*} -- ${line#*$'\\t'}")
                else descriptions+=("${line}"); fi
            done
            (( ${#values} )) && compadd -l -d descriptions -- "${values[@]}" && ret=0
            return ret
        }
        if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
            _tick "$@"
        else
            compdef _tick tick
        fi

        """

    static let fish = """
        # fish completion for tick (tick completions fish)
        function __tick_complete
            set -l words (commandline -opc)
            set -e words[1]
            for line in (tick __complete -- $words (commandline -ct) 2>/dev/null)
                if test "$line" = ":files"
                    __fish_complete_path (commandline -ct)
                else
                    echo $line
                end
            end
        end
        complete -c tick -f -a '(__tick_complete)'

        """
}
