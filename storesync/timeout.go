package storesync

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// DefaultTimeout bounds each fetch and each push of a sync unless asked
// otherwise.
const DefaultTimeout = 2 * time.Minute

// errNoAnswer is a fetch or push that --timeout ended.
var errNoAnswer = errors.New("no answer")

// bounded runs a network call of rm with at most d to finish (0: no
// bound). The call gets a context that ends after d; should a transport
// not heed it (a connection that hangs while it is made), the call is
// left behind and bounded returns at d all the same.
func bounded(d time.Duration, rm *Remote, call func() error) error {
	if d <= 0 {
		return call()
	}
	parent := rm.Context
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithTimeout(parent, d)
	defer cancel()
	rm.Context = ctx
	defer func() { rm.Context = parent }()
	done := make(chan error, 1)
	go func() { done <- call() }()
	select {
	case err := <-done:
		if err != nil && ctx.Err() != nil && parent.Err() == nil {
			return errNoAnswer
		}
		return err
	case <-ctx.Done():
		if parent.Err() != nil {
			// Interrupted (Ctrl-C): the call stops itself cleanly.
			return <-done
		}
		return errNoAnswer
	}
}

// timedOut words a call that --timeout ended; other errors pass.
func timedOut(err error, d time.Duration, what, after string) error {
	if !errors.Is(err, errNoAnswer) {
		return err
	}
	return fmt.Errorf("%s: no answer within %s (--timeout); %s: check that the remote is reachable, or give a longer --timeout",
		what, d, after)
}
