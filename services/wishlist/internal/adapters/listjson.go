package adapters

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
)

// The list is the hottest read (every wishlist screen asks for it), and profiles under
// `make bench` showed half of the service's CPU going to it: a Go string per column, a
// features array decoded from jsonb only to be encoded again, and reflection-driven JSON.
// ListJSON instead asks PostgreSQL for binary values and writes the API's JSON straight from
// them; domain.Item's JSON names are the contract, and adapters tests hold the two equal.

// listColumns are in the order appendItemJSON reads them (user_id is never answered).
const listColumns = `id, name, description, price, image_url, category, features,
	search_query, shopping_url, ai_generated, sent_to_santa, created_at`

// binaryResults asks for every column in PostgreSQL's binary format, whose layout per type
// is fixed: text as its UTF-8 bytes, uuid as 16 bytes, bool as one, timestamptz as int64
// microseconds since 2000-01-01 UTC, jsonb as a version byte and the JSON text.
var binaryResults = pgx.QueryResultFormats{pgx.BinaryFormatCode}

// postgresEpoch is where timestamptz's binary microseconds count from.
var postgresEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// listBuffers keeps answer buffers between requests; a list is tens of kilobytes.
var listBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledBuffer keeps a rare huge list from pinning its buffer in the pool.
const maxPooledBuffer = 1 << 20

// ListJSON writes the user's items, newest first and at most limit (0 for all), as the JSON
// array of domain.Item the API answers, and hands it to write before reusing the buffer.
func (r *Repository) ListJSON(ctx context.Context, userID string, limit int, write func(json.RawMessage)) error {
	q := "SELECT " + listColumns + " FROM items WHERE user_id = $1 ORDER BY created_at DESC, id DESC"
	args := []any{binaryResults, userID}
	if limit > 0 {
		q += " LIMIT $2"
		args = append(args, limit)
	}
	rows, err := r.pool.Query(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("list items: %w", err)
	}
	defer rows.Close()

	bufp := listBuffers.Get().(*[]byte)
	buf := append((*bufp)[:0], '[')
	for rows.Next() {
		if len(buf) > 1 {
			buf = append(buf, ',')
		}
		if buf, err = appendItemJSON(buf, rows.RawValues()); err != nil {
			return fmt.Errorf("list items: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("list items: %w", err)
	}
	buf = append(buf, ']')
	write(buf)
	if cap(buf) <= maxPooledBuffer {
		*bufp = buf
		listBuffers.Put(bufp)
	}
	return nil
}

// appendItemJSON appends one row of listColumns as the JSON of a domain.Item.
func appendItemJSON(buf []byte, v [][]byte) ([]byte, error) {
	if len(v) != 12 {
		return buf, fmt.Errorf("a row has %d columns, want 12", len(v))
	}
	id, features, aiGenerated, sentToSanta, createdAt := v[0], v[6], v[9], v[10], v[11]
	if len(id) != 16 || len(aiGenerated) != 1 || len(sentToSanta) != 1 || len(createdAt) != 8 ||
		len(features) < 1 || features[0] != 1 {
		return buf, fmt.Errorf("a row's binary values do not have the expected layout")
	}
	buf = append(buf, `{"id":"`...)
	buf = appendUUID(buf, id)
	buf = append(buf, `","name":`...)
	buf = appendString(buf, v[1])
	buf = append(buf, `,"description":`...)
	buf = appendString(buf, v[2])
	buf = append(buf, `,"price":`...)
	buf = appendNullableString(buf, v[3])
	buf = append(buf, `,"imageUrl":`...)
	buf = appendNullableString(buf, v[4])
	buf = append(buf, `,"category":`...)
	buf = appendNullableString(buf, v[5])
	buf = append(buf, `,"features":`...)
	buf = append(buf, features[1:]...) // PostgreSQL wrote it from a valid jsonb value
	buf = append(buf, `,"searchQuery":`...)
	buf = appendString(buf, v[7])
	buf = append(buf, `,"shoppingUrl":`...)
	buf = appendString(buf, v[8])
	buf = append(buf, `,"aiGenerated":`...)
	buf = appendBool(buf, aiGenerated[0] != 0)
	buf = append(buf, `,"sentToSanta":`...)
	buf = appendBool(buf, sentToSanta[0] != 0)
	buf = append(buf, `,"createdAt":"`...)
	micros := int64(binary.BigEndian.Uint64(createdAt))
	buf = postgresEpoch.Add(time.Duration(micros)*time.Microsecond).AppendFormat(buf, time.RFC3339Nano)
	return append(buf, `"}`...), nil
}

func appendUUID(buf, id []byte) []byte {
	var s [36]byte
	hex.Encode(s[0:8], id[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], id[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], id[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], id[8:10])
	s[23] = '-'
	hex.Encode(s[24:36], id[10:16])
	return append(buf, s[:]...)
}

func appendBool(buf []byte, b bool) []byte {
	if b {
		return append(buf, "true"...)
	}
	return append(buf, "false"...)
}

func appendNullableString(buf, s []byte) []byte {
	if s == nil { // SQL NULL
		return append(buf, "null"...)
	}
	return appendString(buf, s)
}

// appendString appends s as a JSON string, escaped as encoding/json does: quotes, backslashes
// and control characters, plus <, > and & so the answer stays safe to embed in HTML, and
// U+2028/U+2029 which JavaScript once read as line ends. Invalid UTF-8 (which a UTF8 database
// never holds) becomes U+FFFD.
func appendString(buf, s []byte) []byte {
	const hexDigits = "0123456789abcdef"
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\b':
				buf = append(buf, '\\', 'b')
			case '\f':
				buf = append(buf, '\\', 'f')
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}
