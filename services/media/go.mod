module github.com/santa-wishlist/santa/services/media

go 1.26

require github.com/santa-wishlist/santa/pkg v0.0.0

replace github.com/santa-wishlist/santa/pkg => ../../pkg
