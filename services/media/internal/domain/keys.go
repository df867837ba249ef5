package domain

import (
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
)

// Object keys look like items/<itemId or "unattached">/<32 hex>.<jpg|png> with a sibling
// items/<...>/<32 hex>_thumb.jpg. The 128 random bits make a key unguessable, so a key works
// as a capability: whoever was given the URL may fetch the image, nobody can enumerate them.
const (
	itemsPrefix = "items/"
	// Unattached is the folder of images uploaded before their item existed.
	Unattached = "unattached"
	// URLPrefix is the public path under which objects are served.
	URLPrefix  = "/media/"
	thumbSufix = "_thumb.jpg"
)

var (
	uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	keyPattern  = regexp.MustCompile(`^items/(unattached|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/([0-9a-f]{32})(_thumb\.jpg|\.jpg|\.png)$`)
)

// NormalizeItemID checks an optional item id. Empty means the image is not attached yet.
// Ids are lower-cased so that one item has one folder.
func NormalizeItemID(id string) (string, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return "", nil
	}
	if !uuidPattern.MatchString(id) {
		return "", fmt.Errorf("%w: %q is not a UUID", ErrInvalidItemID, id)
	}
	return strings.ToLower(id), nil
}

// ItemPrefix is the folder holding every object of an item (itemID already normalised).
func ItemPrefix(itemID string) string { return itemsPrefix + itemID + "/" }

// ObjectKeys names the image and its thumbnail from a normalised item id (empty for
// unattached), 16 random bytes and the stored image's extension.
func ObjectKeys(itemID string, random [16]byte, ext string) (image, thumb string) {
	folder := itemID
	if folder == "" {
		folder = Unattached
	}
	base := itemsPrefix + folder + "/" + hex.EncodeToString(random[:])
	return base + "." + ext, base + thumbSufix
}

// ValidKey reports whether key is one this service could have written. Anything else
// (folders, listings, traversal attempts, other buckets' names) is simply not found.
func ValidKey(key string) bool { return keyPattern.MatchString(key) }

// URL is the public address of a stored object.
func URL(key string) string { return URLPrefix + key }

// KeysForImageURL returns the stored objects an item's imageUrl refers to: the image and its
// thumbnail (or, given a thumbnail URL, the thumbnail and the possible images). It returns
// nil for anything that is not one of our /media/ URLs (external links, data: URLs, "").
func KeysForImageURL(imageURL string) []string {
	key, ok := strings.CutPrefix(strings.TrimSpace(imageURL), URLPrefix)
	if !ok {
		return nil
	}
	// Strip a query or fragment a client may have added (cache busting).
	if i := strings.IndexAny(key, "?#"); i >= 0 {
		key = key[:i]
	}
	m := keyPattern.FindStringSubmatch(key)
	if m == nil {
		return nil
	}
	base := itemsPrefix + m[1] + "/" + m[2]
	if m[3] == thumbSufix {
		return []string{base + thumbSufix, base + ".jpg", base + ".png"}
	}
	return []string{key, base + thumbSufix}
}
