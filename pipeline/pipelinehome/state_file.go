package pipelinehome

import (
	"io/fs"

	"github.com/curator-dev/curator/internal/safepath"
	"github.com/curator-dev/curator/pipeline"
)

// ReadStateFile is the state file of project in the home o names (o.Home,
// else the store's pipelines/ folder) as it is now, nothing loaded or
// checked; fs.ErrNotExist when there is none, project cannot name one,
// or the file leads out of the home.
func ReadStateFile(o Options, project string) ([]byte, error) {
	if pipeline.CheckProject(project) != nil {
		return nil, fs.ErrNotExist
	}
	dir := o.Home
	if dir == "" {
		s, err := o.Store()
		if err != nil {
			return nil, err
		}
		dir = s.Path("pipelines")
	}
	dir, err := pipeline.AbsPath(dir, o.UserHome)
	if err != nil {
		return nil, err
	}
	file, err := pipeline.Home{Dir: dir}.Path(pipeline.StateName(project))
	if err != nil {
		return nil, fs.ErrNotExist
	}
	return safepath.ReadInside(dir, file)
}
