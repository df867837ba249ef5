package redisclient_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/redisclient"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

// Small buffers must not cap what a value may hold: a stored answer can reach a megabyte.
func TestLargeValuesRoundTripThroughSmallBuffers(t *testing.T) {
	rdb, err := redisclient.New(testenv.RedisURL())
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	ctx := context.Background()
	key := "test-redisclient-" + testenv.RandomHex(4)
	value := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB

	pipe := rdb.Pipeline()
	pipe.Set(ctx, key, value, time.Minute)
	get := pipe.Get(ctx, key)
	if _, err := pipe.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := get.Bytes(); !bytes.Equal(got, value) {
		t.Fatalf("pipelined read: %d bytes back of %d", len(got), len(value))
	}
	if got, err := rdb.Get(ctx, key).Bytes(); err != nil || !bytes.Equal(got, value) {
		t.Fatalf("read: %d bytes back of %d (%v)", len(got), len(value), err)
	}
	if _, err := redisclient.New("http://not-redis"); err == nil {
		t.Fatal("a non-redis URL was accepted")
	}
}
