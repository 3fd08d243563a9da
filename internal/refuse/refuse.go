// Package refuse names the ways a request is turned down before
// anything is written: the request itself is wrong (an id that cannot name
// a record, an unknown setting, a value out of range: the user's input), or
// validation blocked the operation (an artifact that fails its checks,
// values both sides changed, a secret), or the agent asking is below the
// access level the operation needs. The use-cases of every domain return
// them; the command line gives them exit statuses 2, 3 and 6, and the MCP
// server answers them as tool errors.
package refuse

import (
	"errors"
	"fmt"
)

// RequestError is a request that cannot be done as asked.
type RequestError struct{ Err error }

func (e *RequestError) Error() string { return e.Err.Error() }
func (e *RequestError) Unwrap() error { return e.Err }

// BlockedError is an operation that validation refused; nothing was
// changed unless the message says what was recorded.
type BlockedError struct{ Err error }

func (e *BlockedError) Error() string { return e.Err.Error() }
func (e *BlockedError) Unwrap() error { return e.Err }

// Request marks err as a request that cannot be done as asked.
func Request(err error) error {
	if err == nil {
		return nil
	}
	return &RequestError{err}
}

// Requestf is Request of a formatted error.
func Requestf(format string, a ...any) error { return &RequestError{fmt.Errorf(format, a...)} }

// Blocked marks err as refused by validation.
func Blocked(err error) error {
	if err == nil {
		return nil
	}
	return &BlockedError{err}
}

// Blockedf is Blocked of a formatted error.
func Blockedf(format string, a ...any) error { return &BlockedError{fmt.Errorf(format, a...)} }

// IsRequest reports whether err is, or wraps, a RequestError.
func IsRequest(err error) bool {
	var r *RequestError
	return errors.As(err, &r)
}

// IsBlocked reports whether err is, or wraps, a BlockedError.
func IsBlocked(err error) bool {
	var b *BlockedError
	return errors.As(err, &b)
}

// PermissionError is a request from an agent whose access level (the
// store's config.yaml access section) is below what the operation needs;
// nothing was changed.
type PermissionError struct {
	// Agent is the agent's name ("" an unnamed agent).
	Agent string
	// Level is the agent's level, Required the operation's.
	Level, Required int
	// Operation says what was refused, in the user's words ("curating
	// the playbook").
	Operation string
}

func (e *PermissionError) Error() string {
	who := fmt.Sprintf("agent %q", e.Agent)
	if e.Agent == "" {
		who = "an unnamed agent (no --agent, CURATOR_AGENT or MCP client name)"
	}
	return fmt.Sprintf("%s has access level %d; %s needs level %d (%s) in config.yaml's access section: nothing was changed",
		who, e.Level, e.Operation, e.Required, LevelName(e.Required))
}

// LevelName is what an access level is for: 4 project (changing the
// playbook), 5 system (auditing the store's history).
func LevelName(level int) string {
	switch level {
	case 4:
		return "project"
	case 5:
		return "system"
	}
	return fmt.Sprintf("level %d", level)
}

// IsPermission reports whether err is, or wraps, a PermissionError.
func IsPermission(err error) bool {
	var p *PermissionError
	return errors.As(err, &p)
}
