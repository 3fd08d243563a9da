package mdstore

import (
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/curator-dev/curator/internal/refuse"
)

// Access levels of config.yaml's access section: changing the playbook
// needs LevelProject, auditing the store's history LevelSystem.
const (
	LevelProject = 4
	LevelSystem  = 5
)

// Access is config.yaml's access section: the level (1–5) of each agent
// by name, and the level of every other agent, named or not.
type Access struct {
	// DefaultLevel is the level of an agent not in Agents (1 when left
	// out).
	DefaultLevel int            `yaml:"default_level"`
	Agents       map[string]int `yaml:"agents"`
}

// accessSchema is the section's keys, for config.yaml's check.
var accessSchema = section{"default_level": levelSetting, "agents": section{anyKey: levelSetting}}

func levelSetting(n *yaml.Node) string {
	v, ok := scalar(n)
	i, err := strconv.Atoi(v)
	if !ok || n.Tag != "!!int" || err != nil || i < 1 || i > 5 {
		return fmt.Sprintf("%q: want a level from 1 to 5", v)
	}
	return ""
}

// Access is the store's access section; nil when config.yaml has none
// (every agent may do everything).
func (c Config) Access() (*Access, error) {
	var a *Access
	if err := c.Section("access", &a); err != nil {
		return nil, err
	}
	if a != nil && a.DefaultLevel == 0 {
		a.DefaultLevel = 1
	}
	return a, nil
}

// AccessOf reads the access section of a config.yaml held elsewhere than
// in a store's folder (a commit of a bare repository): the whole file is
// checked as a store's is; nil when it has no access section.
func AccessOf(path string, data []byte) (*Access, error) {
	var c Config
	if err := yaml.Unmarshal(data, &c.raw); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", path, ErrConfig, err)
	}
	if err := checkConfig(path, &c.raw); err != nil {
		return nil, err
	}
	return c.Access()
}

// Level is the access level of the agent ("" an unnamed agent).
func (a *Access) Level(agent string) int {
	if l, ok := a.Agents[agent]; ok && agent != "" {
		return l
	}
	return a.DefaultLevel
}

// Require refuses (refuse.PermissionError) an agent whose level is below
// need; nil when a is nil (no access section).
func (a *Access) Require(agent string, need int, operation string) error {
	if a == nil {
		return nil
	}
	if l := a.Level(agent); l < need {
		return &refuse.PermissionError{Agent: agent, Level: l, Required: need, Operation: operation}
	}
	return nil
}

// Require refuses an agent whose level in the store's access section is
// below need, for operation (in the user's words: "curating the
// playbook"); nil when config.yaml has no access section.
func (s *Store) Require(agent string, need int, operation string) error {
	a, err := s.Config.Access()
	if err != nil {
		return err
	}
	return a.Require(agent, need, operation)
}
