package pipelinecmd

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/pipeline"
)

// HomeOptions are the flags every pipeline command shares: the project and
// the folder of its pipeline files.
type HomeOptions struct {
	cmdutil.Env
	// Project is --project, a plain file name.
	Project string
	// Home is --home (or CURATOR_SDD_HOME); "" is the store's pipelines/
	// folder.
	Home string
}

func projectFlag() cli.Flag {
	return &cli.StringFlag{Name: "project", Usage: "project name, a plain file name (may be left out when the home holds exactly one pipeline)"}
}

func homeFlag() cli.Flag {
	return &cli.StringFlag{Name: "home", Usage: "folder of the pipeline files (default: the store's pipelines/); e.g. ~/.claude/sdd", EnvVars: []string{"CURATOR_SDD_HOME"}}
}

func projectPathFlag() cli.Flag {
	return &cli.StringFlag{Name: "project-path", Usage: "the project folder holding the artifacts, ~ for the home folder (default: the recorded one, else the working directory)"}
}

const pipelineUsage = "pipeline type (sdd, ui-lifecycle, debug, full-product, or one from pipeline-config.json)"

func pipelineFlag(required bool) cli.Flag {
	return &cli.StringFlag{Name: "pipeline", Usage: pipelineUsage, Required: required}
}

// homeOptions reads --project and --home.
func homeOptions(f *cmdutil.Factory, c *cli.Context) HomeOptions {
	return HomeOptions{Env: f.Env(c), Project: c.String("project"), Home: c.String("home")}
}

// projectPath reads --project-path, "~" expanded and made absolute (""
// when not given).
func projectPath(c *cli.Context) (string, error) {
	p, err := pipeline.AbsPath(c.String("project-path"), cmdutil.UserHome())
	if err != nil {
		return "", fmt.Errorf("--project-path: %w", err)
	}
	return p, nil
}
