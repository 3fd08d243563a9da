package refuse

import "fmt"

// ParamError is a request parameter that cannot be used: Param names it
// as config.yaml and the MCP tools spell it (similarity_threshold,
// reflection_id), Err says what is wanted. Use-cases return it marked as
// a refused request (Param); the command line names the matching flag
// instead.
type ParamError struct {
	Param string
	Err   error
	// Phrase says the parameter and Err read as one phrase ("for needs
	// the task's text"), without a colon between them.
	Phrase bool
}

func (e *ParamError) Error() string {
	if e.Phrase {
		return e.Param + " " + e.Err.Error()
	}
	return e.Param + ": " + e.Err.Error()
}

func (e *ParamError) Unwrap() error { return e.Err }

// Param is a refused request naming its parameter: "param: err".
func Param(param string, err error) error { return Request(&ParamError{Param: param, Err: err}) }

// Phrasef is a refused request naming its parameter as the first word of
// one phrase: Phrasef("timeout", "cannot be negative") reads "timeout
// cannot be negative".
func Phrasef(param, format string, a ...any) error {
	return Request(&ParamError{Param: param, Err: fmt.Errorf(format, a...), Phrase: true})
}
