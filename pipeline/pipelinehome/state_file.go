package pipelinehome

import "github.com/curator-dev/curator/pipeline"

// StateFile is where the state file of project sits in the home o names
// (o.Home, else the store's pipelines/ folder; nothing is opened or
// loaded): the folder, which the file may not lead out of, and the file.
// The file is "" when project cannot name a state file.
func StateFile(o Options, project string) (dir, file string, err error) {
	if pipeline.CheckProject(project) != nil {
		return "", "", nil
	}
	dir = o.Home
	if dir == "" {
		s, err := o.Store()
		if err != nil {
			return "", "", err
		}
		dir = s.Path("pipelines")
	}
	if dir, err = pipeline.AbsPath(dir, o.UserHome); err != nil {
		return "", "", err
	}
	file, err = pipeline.Home{Dir: dir}.Path(pipeline.StateName(project))
	if err != nil {
		return dir, "", nil
	}
	return dir, file, nil
}
