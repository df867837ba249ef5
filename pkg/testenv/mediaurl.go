package testenv

import "github.com/santa-wishlist/santa/pkg/mediaurl"

// MediaURLSecret is the photo-address secret the component tests share between the services
// that sign (wishlist, media) and media, which checks.
const MediaURLSecret = "test-media-url-secret-of-32-bytes+"

// MediaURLSigner signs and checks photo addresses with MediaURLSecret.
func MediaURLSigner() *mediaurl.Signer {
	s, err := mediaurl.NewSigner(MediaURLSecret)
	if err != nil {
		panic(err)
	}
	return s
}
