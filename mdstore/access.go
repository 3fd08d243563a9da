package mdstore

import "github.com/curator-dev/curator/config"

// Access levels of config.yaml's access section (config.LevelProject,
// config.LevelSystem): changing the playbook needs LevelProject, auditing
// the store's history LevelSystem.
const (
	LevelProject = config.LevelProject
	LevelSystem  = config.LevelSystem
)

// AccessOf reads the access section of a config.yaml held elsewhere than
// in a store's folder (a commit of a bare repository): the whole file is
// checked as a store's is; nil when it has no access section.
func AccessOf(path string, data []byte) (*config.Access, error) {
	c, err := config.Parse(path, data)
	if err != nil {
		return nil, err
	}
	return c.Access, nil
}

// Require refuses an agent whose level in the store's access section is
// below need, for operation (in the user's words: "curating the
// playbook"); nil when config.yaml has no access section.
func (s *Store) Require(agent string, need int, operation string) error {
	return s.Config.Access.Require(agent, need, operation)
}
