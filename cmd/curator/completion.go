package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
)

// Completion scripts ask the binary itself for the words that may follow
// (urfave/cli's --generate-bash-completion), so they follow its commands.
const bashCompletion = `# curator completion for bash: source <(curator completion bash)
_curator_complete() {
  local cur words
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  words=("${COMP_WORDS[@]:0:$COMP_CWORD}")
  local opts
  if [[ "$cur" == "-"* ]]; then
    opts=$("${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)
  else
    opts=$("${words[@]}" --generate-bash-completion 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "${opts}" -- "${cur}"))
  return 0
}
complete -o bashdefault -o default -F _curator_complete curator
`

const zshCompletion = `#compdef curator
# curator completion for zsh: curator completion zsh > "${fpath[1]}/_curator"
_curator() {
  local -a opts
  local cur
  cur=${words[-1]}
  if [[ "$cur" == "-"* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${cur} --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion 2>/dev/null)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _curator curator
`

func completionCmd(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash, zsh or fish",
		ArgsUsage: "bash|zsh|fish",
		Description: "bash: source <(curator completion bash), or save it in /etc/bash_completion.d/curator\n" +
			"zsh:  curator completion zsh > \"${fpath[1]}/_curator\"\n" +
			"fish: curator completion fish > ~/.config/fish/completions/curator.fish",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return cmdutil.Usagef("curator completion: want one shell: bash, zsh or fish")
			}
			var script string
			switch shell := c.Args().First(); shell {
			case "bash":
				script = bashCompletion
			case "zsh":
				script = zshCompletion
			case "fish":
				s, err := c.App.ToFishCompletion()
				if err != nil {
					return err
				}
				script = s
			default:
				return cmdutil.Usagef("curator completion: unknown shell %q; want bash, zsh or fish", shell)
			}
			_, err := fmt.Fprint(f.IO.Out, script)
			return err
		},
	}
}
