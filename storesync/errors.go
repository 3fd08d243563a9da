package storesync

// BlockedError is a sync or resolve that refused to go on, having changed
// nothing: a version that is not a record, files both sides changed outside
// the store, uncommitted edits the merge would overwrite, values both sides
// changed differently, a file still conflicted. The message says what to do.
type BlockedError struct{ Err error }

func (e *BlockedError) Error() string { return e.Err.Error() }
func (e *BlockedError) Unwrap() error { return e.Err }

// RequestError is a sync asked for something this repository cannot give:
// a remote it does not have, a branch while HEAD is detached.
type RequestError struct{ Err error }

func (e *RequestError) Error() string { return e.Err.Error() }
func (e *RequestError) Unwrap() error { return e.Err }

func blocked(err error) error { return &BlockedError{err} }
