package apperror

import (
	"errors"
	"fmt"
	"testing"
)

func TestClassify(t *testing.T) {
	errGone := errors.New("item not found")
	errFull := errors.New("full")
	sentinels := []Sentinel{
		{Err: errGone, Kind: KindNotFound, Code: "not_found"},
		{Err: errFull, Kind: KindConflict, Code: "full", Message: "the list is full"},
	}
	own := &Error{Kind: KindTooLarge, Code: "image_rejected", Message: "too big"}
	cause := errors.New("connection refused")
	for _, tc := range []struct {
		err        error
		kind       Kind
		code, text string
	}{
		{fmt.Errorf("delete: %w", errGone), KindNotFound, "not_found", "item not found"},
		{errFull, KindConflict, "full", "the list is full"},
		{fmt.Errorf("store: %w", own), KindTooLarge, "image_rejected", "too big"},
		{cause, KindUnavailable, CodeUnavailable, "please try again shortly"},
	} {
		e := Classify(tc.err, sentinels)
		if e.Kind != tc.kind || e.Code != tc.code || e.Message != tc.text {
			t.Errorf("Classify(%v) = %v %q %q, want %v %q %q", tc.err, e.Kind, e.Code, e.Message, tc.kind, tc.code, tc.text)
		}
	}
	if e := Classify(cause, sentinels); !errors.Is(e, cause) {
		t.Errorf("an unclassified error does not wrap its cause")
	}
}
