package config

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

// DefaultAccessLevel is the level of an agent the section does not list,
// when default_level is left out.
const DefaultAccessLevel = 1

// Access is config.yaml's access section: the level (1–5) of each agent
// by name, and the level of every other agent, named or not.
type Access struct {
	// DefaultLevel is the level of an agent not in Agents
	// (DefaultAccessLevel when left out).
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

// Level is the access level of the agent ("" an unnamed agent).
func (a *Access) Level(agent string) int {
	if l, ok := a.Agents[agent]; ok && agent != "" {
		return l
	}
	if a.DefaultLevel == 0 {
		return DefaultAccessLevel
	}
	return a.DefaultLevel
}

// Require refuses (refuse.PermissionError) an agent whose level is below
// need, for operation (in the user's words: "curating the playbook");
// nil when a is nil (no access section: every agent may do everything).
func (a *Access) Require(agent string, need int, operation string) error {
	if a == nil {
		return nil
	}
	if l := a.Level(agent); l < need {
		return &refuse.PermissionError{Agent: agent, Level: l, Required: need, Operation: operation}
	}
	return nil
}
