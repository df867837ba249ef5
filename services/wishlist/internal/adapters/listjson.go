package adapters

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/mediaurl"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// The list is the hottest read (every wishlist screen asks for it), and profiles under
// `make bench` showed half of the service's CPU going to it: a Go string per column, a
// features array decoded from jsonb only to be encoded again, and reflection-driven JSON.
// ListJSON instead asks PostgreSQL for binary values and writes the API's JSON straight from
// them; domain.Item's JSON names are the contract, and adapters tests hold the two equal.
// The columns themselves are itemFields (items.go).

// Projections: the columns one kind of reader is answered. Claim columns exist only in the
// projections built for readers who may see them, and each filters claims by their own reveal
// date in SQL (reveal_at > now(): this season's, secret from the owner; reveal_at <= now():
// revealed, the gift history), so no claim made this season can change a byte of what the
// owner or an anonymous visitor is answered.
var (
	// itemProjection: the item alone (recent items, anonymous visitors, the item reads).
	itemProjection = newProjection(itemFields)
	// ownerProjection: the owner's lists, with the revealed claims only (the gift history).
	ownerProjection = newProjection(append(append([]column{}, itemFields...), column{sql: revealedGifts, key: "claims", write: writeJSONB}))
	// memberProjection: a signed-in giver who does not keep the list, who sees this season's
	// claims and the suggestions; $2 of its query is the uid.
	memberProjection = newProjection(concat(itemFields, seasonClaimed, suggestionColumns, givingColumns)).from(givingFrom)
	// managerProjection: a manager of a list for someone else, who also sees who is giving
	// what; $2 of its query is the uid.
	managerProjection = newProjection(concat(itemFields, seasonClaimed, []column{{sql: `(SELECT COALESCE(jsonb_agg(jsonb_build_object(
			'displayName', c.display_name, 'quantity', c.quantity, 'purchased', c.purchased, 'revealedAt', c.reveal_at)
			ORDER BY c.created_at, c.user_id), '[]'::jsonb)
			FROM claims c WHERE c.item_id = items.id AND c.reveal_at > now())`, key: "claims", write: writeJSONB}}, suggestionColumns, givingColumns)).from(givingFrom)
)

// revealedGifts are an item's revealed gifts, its owner's gift history: the revealed claims, and
// the pledges of its revealed complete group gifts (quantity 0, with their amount), each with
// when it was thanked.
const revealedGifts = `(SELECT COALESCE(jsonb_agg(x.j ORDER BY x.at DESC, x.created, x.uid), '[]'::jsonb) FROM (
		SELECT jsonb_build_object('displayName', c.display_name, 'quantity', c.quantity, 'purchased', c.purchased,
			'revealedAt', c.reveal_at, 'thankedAt', c.thanks_at) AS j, c.reveal_at AS at, c.created_at AS created, c.user_id AS uid
		FROM claims c WHERE c.item_id = items.id AND c.reveal_at <= now()
		UNION ALL
		SELECT jsonb_build_object('displayName', p.display_name, 'quantity', 0, 'amount', money_text(p.amount_minor, g.digits),
			'currency', g.currency, 'purchased', false, 'revealedAt', g.reveal_at, 'thankedAt', p.thanks_at), g.reveal_at, p.created_at, p.user_id
		FROM group_gifts g JOIN pledges p ON p.group_gift_id = g.id
		WHERE g.item_id = items.id AND g.reveal_at <= now() AND g.completed_at IS NOT NULL) x)`

// seasonClaimed are a giver's claim summaries: units claimed this season by anyone (with a
// complete group gift's units: gg, from givingFrom), and by the giver ($2).
var seasonClaimed = []column{
	{sql: `((SELECT COALESCE(sum(c.quantity), 0) FROM claims c WHERE c.item_id = items.id AND c.reveal_at > now())
		+ CASE WHEN gg.complete THEN gg.units ELSE 0 END)::int4`,
		key: "claimed", write: writeInt4},
	{sql: "COALESCE((SELECT c.quantity FROM claims c WHERE c.item_id = items.id AND c.user_id = $2 AND c.reveal_at > now()), 0)::int4",
		key: "mine", write: writeInt4},
}

// suggestionColumns mark a giver's suggestions: who suggested it, and whether that was the
// giver ($2). Never part of a recipient's projection.
var suggestionColumns = []column{
	{sql: "items.suggested_by IS NOT NULL", key: "suggested", write: writeBool},
	{sql: `CASE WHEN items.suggested_by IS NULL THEN NULL
		ELSE jsonb_build_object('displayName', items.suggested_by_name, 'mine', items.suggested_by = $2) END`,
		key: "suggestedBy", write: writeNullableJSONB},
}

// givingFrom is the givers' projections' FROM: each item with its group gift of this season (gg:
// one row or none, groupGiftColumns and its units), read once per item for both what is claimed
// and the groupGift column.
const givingFrom = `items LEFT JOIN LATERAL (SELECT ` + groupGiftColumns + `, g.units FROM ` + groupGiftFrom + `
	WHERE g.item_id = items.id AND g.reveal_at > now()) gg ON true`

// givingColumns are a giver's: the item's group gift of this season (from givingFrom), and its
// price read as an amount (for a group gift's default target). Never part of a recipient's
// projection.
var givingColumns = []column{
	{sql: "gg.organizer_name, gg.organizer_is_me, gg.target_minor, gg.currency, gg.digits, gg.complete, gg.total, gg.names, gg.amounts, gg.mine",
		key: "groupGift", values: 10, writeValues: writeGroupGift},
	{sql: "items.price", key: "priceAmount", write: writePriceAmount},
}

// writeGroupGift writes a group gift read with groupGiftColumns as the API's groupGift, or null
// when the item has none this season.
func writeGroupGift(buf []byte, v [][]byte) ([]byte, error) {
	if v[0] == nil {
		return append(buf, "null"...), nil
	}
	if len(v[1]) != 1 || len(v[2]) != 8 || len(v[4]) != 2 || len(v[5]) != 1 || len(v[6]) != 8 {
		return buf, errLayout
	}
	digits := int(int16(binary.BigEndian.Uint16(v[4])))
	target, total := int64(binary.BigEndian.Uint64(v[2])), int64(binary.BigEndian.Uint64(v[6]))
	names, err := arrayElements(v[7])
	if err != nil {
		return buf, err
	}
	amounts, err := arrayElements(v[8])
	if err != nil {
		return buf, err
	}
	mine, err := arrayElements(v[9])
	if err != nil || len(amounts) != len(names) || len(mine) != len(names) {
		return buf, errLayout
	}
	buf = append(buf, `{"organizer":{"displayName":`...)
	buf = appendString(buf, v[0])
	buf = append(buf, `},"organizerIsMe":`...)
	buf = appendBool(buf, v[1][0] != 0)
	buf = append(buf, `,"target":`...)
	buf = appendMoney(buf, target, digits)
	buf = append(buf, `,"currency":`...)
	buf = appendString(buf, v[3])
	buf = append(buf, `,"pledged":`...)
	buf = appendMoney(buf, total, digits)
	buf = append(buf, `,"remaining":`...)
	buf = appendMoney(buf, max(target-total, 0), digits)
	buf = append(buf, `,"complete":`...)
	buf = appendBool(buf, v[5][0] != 0)
	buf = append(buf, `,"pledges":[`...)
	for i := range names {
		if len(amounts[i]) != 8 || len(mine[i]) != 1 {
			return buf, errLayout
		}
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"displayName":`...)
		buf = appendString(buf, names[i])
		buf = append(buf, `,"amount":`...)
		buf = appendMoney(buf, int64(binary.BigEndian.Uint64(amounts[i])), digits)
		buf = append(buf, `,"mine":`...)
		buf = appendBool(buf, mine[i][0] != 0)
		buf = append(buf, '}')
	}
	return append(buf, "]}"...), nil
}

// powersOfTen are the divisors of the digits a currency may have (group_gifts' check: 0 to 4).
var powersOfTen = [...]int64{1, 10, 100, 1000, 10000}

// appendMoney appends minor units as the API's quoted decimal string with digits decimals,
// exactly as money_text writes it ("25.00", "2500", "-0.05").
func appendMoney(buf []byte, minor int64, digits int) []byte {
	buf = append(buf, '"')
	if digits <= 0 || digits >= len(powersOfTen) {
		return append(strconv.AppendInt(buf, minor, 10), '"')
	}
	if minor < 0 {
		buf = append(buf, '-')
		minor = -minor
	}
	unit := powersOfTen[digits]
	buf = strconv.AppendInt(buf, minor/unit, 10)
	buf = append(buf, '.')
	frac := strconv.AppendInt(nil, minor%unit, 10)
	for range digits - len(frac) {
		buf = append(buf, '0')
	}
	return append(append(buf, frac...), '"')
}

// arrayElements splits a one-dimensional array in PostgreSQL's binary format into its elements'
// values (nil for NULL); a NULL array (array_agg of no rows) has none. The layout: ndim, a
// has-null flag and the element type (int32 each), then per dimension its length and lower bound,
// then each element as an int32 length (-1: NULL) and that many bytes.
func arrayElements(v []byte) ([][]byte, error) {
	if v == nil {
		return nil, nil
	}
	if len(v) < 12 {
		return nil, errLayout
	}
	ndim := int32(binary.BigEndian.Uint32(v))
	if ndim == 0 {
		return nil, nil
	}
	if ndim != 1 || len(v) < 20 {
		return nil, errLayout
	}
	n := int(int32(binary.BigEndian.Uint32(v[12:])))
	rest := v[20:]
	out := make([][]byte, 0, n)
	for range n {
		if len(rest) < 4 {
			return nil, errLayout
		}
		size := int(int32(binary.BigEndian.Uint32(rest)))
		rest = rest[4:]
		if size < 0 {
			out = append(out, nil)
			continue
		}
		if len(rest) < size {
			return nil, errLayout
		}
		out = append(out, rest[:size:size])
		rest = rest[size:]
	}
	return out, nil
}

// writePriceAmount writes the price text read as {amount, currency} (currency null when the
// text names none), or null when it holds no amount.
func writePriceAmount(buf, v []byte) ([]byte, error) {
	if v == nil {
		return append(buf, "null"...), nil
	}
	minor, cur, ok := domain.ReadPrice(string(v))
	if !ok {
		return append(buf, "null"...), nil
	}
	shown := cur
	if shown == "" {
		shown = "EUR" // two decimals, as ReadPrice read it; the currency itself is unknown
	}
	buf = append(buf, `{"amount":`...)
	buf = appendString(buf, []byte(domain.FormatMinor(minor, shown)))
	buf = append(buf, `,"currency":`...)
	if cur == "" {
		buf = append(buf, "null"...)
	} else {
		buf = appendString(buf, []byte(cur))
	}
	return append(buf, '}'), nil
}

func concat(parts ...[]column) []column {
	var out []column
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

type projection struct {
	columns []column
	sql     string   // the SELECT list
	keys    []string // `{"id":` then `,"name":` ..., written before each value
	values  int      // the values a row has: one per column, or the column's values
	// table is what the query reads FROM: "items", or a join that some columns need (givingFrom).
	table string
}

func newProjection(cols []column) projection {
	p := projection{columns: cols, table: "items"}
	for i, c := range cols {
		p.values += max(c.values, 1)
		if i > 0 {
			p.sql += ", "
		}
		p.sql += c.sql
		sep := ","
		if i == 0 {
			sep = "{"
		}
		p.keys = append(p.keys, sep+`"`+c.key+`":`)
	}
	return p
}

// from is p reading FROM table instead of items alone.
func (p projection) from(table string) projection {
	p.table = table
	return p
}

// appendRow appends one row of the projection as a JSON object, its photo signed with photos.
func (p projection) appendRow(buf []byte, v [][]byte, photos mediaurl.Stamp) ([]byte, error) {
	if len(v) != p.values {
		return buf, fmt.Errorf("a row has %d values, want %d", len(v), p.values)
	}
	var err error
	i := 0
	for k, c := range p.columns {
		buf = append(buf, p.keys[k]...)
		switch {
		case c.writeValues != nil:
			buf, err = c.writeValues(buf, v[i:i+c.values])
			i += c.values
		case c.photo && v[i] != nil:
			buf = appendString(buf, []byte(photos.Sign(string(v[i]))))
			i++
		default:
			buf, err = c.write(buf, v[i])
			i++
		}
		if err != nil {
			return buf, fmt.Errorf("column %s: %w", c.key, err)
		}
	}
	return append(buf, '}'), nil
}

// binaryResults asks for every column in PostgreSQL's binary format, whose layout per type
// is fixed: text as its UTF-8 bytes, uuid as 16 bytes, bool as one, int2/int4 big-endian,
// timestamptz as int64 microseconds since 2000-01-01 UTC, jsonb as a version byte and the JSON.
var binaryResults = pgx.QueryResultFormats{pgx.BinaryFormatCode}

// postgresEpoch is where timestamptz's binary microseconds count from.
var postgresEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// listBuffers keeps answer buffers between requests; a list is tens of kilobytes.
var listBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledBuffer keeps a rare huge list from pinning its buffer in the pool.
const maxPooledBuffer = 1 << 20

var errLayout = fmt.Errorf("a binary value does not have the expected layout")

// writeRows runs the query and hands write prefix + the rows as a JSON array + suffix.
func (r *Repository) writeRows(ctx context.Context, p projection, prefix, suffix []byte, write func(json.RawMessage), q string, args ...any) error {
	_, err := r.writeSomeRows(ctx, p, prefix, suffix, false, write, q, args...)
	return err
}

// writeSomeRows is writeRows that, with onlyIfAny, leaves write uncalled when the query
// finds no row; it says how many rows it found.
func (r *Repository) writeSomeRows(ctx context.Context, p projection, prefix, suffix []byte, onlyIfAny bool, write func(json.RawMessage), q string, args ...any) (int, error) {
	rows, err := r.pool.Query(ctx, q, append([]any{binaryResults}, args...)...)
	if err != nil {
		return 0, fmt.Errorf("list items: %w", err)
	}
	defer rows.Close()

	bufp := listBuffers.Get().(*[]byte)
	buf := append(append((*bufp)[:0], prefix...), '[')
	photos := r.photoStamp()
	n := 0
	for rows.Next() {
		if n > 0 {
			buf = append(buf, ',')
		}
		n++
		if buf, err = p.appendRow(buf, rows.RawValues(), photos); err != nil {
			return n, fmt.Errorf("list items: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return n, fmt.Errorf("list items: %w", err)
	}
	buf = append(append(buf, ']'), suffix...)
	if n > 0 || !onlyIfAny {
		write(buf)
	}
	if cap(buf) <= maxPooledBuffer {
		*bufp = buf
		listBuffers.Put(bufp)
	}
	return n, nil
}

func writeUUID(buf, v []byte) ([]byte, error) {
	if len(v) != 16 {
		return buf, errLayout
	}
	buf = append(buf, '"')
	return append(appendUUID(buf, v), '"'), nil
}

func writeText(buf, v []byte) ([]byte, error) { return appendString(buf, v), nil }

func writeNullableText(buf, v []byte) ([]byte, error) { return appendNullableString(buf, v), nil }

func writeJSONB(buf, v []byte) ([]byte, error) {
	if len(v) < 1 || v[0] != 1 {
		return buf, errLayout
	}
	return append(buf, v[1:]...), nil // PostgreSQL wrote it from a valid jsonb value
}

func writeNullableJSONB(buf, v []byte) ([]byte, error) {
	if v == nil {
		return append(buf, "null"...), nil
	}
	return writeJSONB(buf, v)
}

// writeNullableJSON writes a json (not jsonb) value: its binary form is the text itself.
func writeNullableJSON(buf, v []byte) ([]byte, error) {
	if v == nil {
		return append(buf, "null"...), nil
	}
	return append(buf, v...), nil // PostgreSQL wrote it from a valid json value
}

func writeBool(buf, v []byte) ([]byte, error) {
	if len(v) != 1 {
		return buf, errLayout
	}
	return appendBool(buf, v[0] != 0), nil
}

func writeInt2(buf, v []byte) ([]byte, error) {
	if len(v) != 2 {
		return buf, errLayout
	}
	return strconv.AppendInt(buf, int64(int16(binary.BigEndian.Uint16(v))), 10), nil
}

func writeInt4(buf, v []byte) ([]byte, error) {
	if len(v) != 4 {
		return buf, errLayout
	}
	return strconv.AppendInt(buf, int64(int32(binary.BigEndian.Uint32(v))), 10), nil
}

func writeTime(buf, v []byte) ([]byte, error) {
	if len(v) != 8 {
		return buf, errLayout
	}
	micros := int64(binary.BigEndian.Uint64(v))
	buf = append(buf, '"')
	buf = postgresEpoch.Add(time.Duration(micros)*time.Microsecond).AppendFormat(buf, time.RFC3339Nano)
	return append(buf, '"'), nil
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

// jsonPlain marks the bytes appendString copies as they are: printable ASCII but for the ones
// it escapes.
var jsonPlain = func() (plain [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		plain[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return plain
}()

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
		if jsonPlain[c] { // most of every answer: one table look-up a byte
			i++
			continue
		}
		if c < utf8.RuneSelf {
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
