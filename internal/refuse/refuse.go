// Package refuse names the two ways a request is turned down before
// anything is written: the request itself is wrong (an id that cannot name
// a record, an unknown setting, a value out of range: the user's input), or
// validation blocked the operation (an artifact that fails its checks,
// values both sides changed, a secret). The use-cases of every domain
// return them; the command line gives the first exit status 2 and the
// second 3, and the MCP server answers both as tool errors.
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
