module github.com/santa-wishlist/santa/deploy/local/stackplan

go 1.26.0
