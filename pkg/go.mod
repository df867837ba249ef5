module github.com/santa-wishlist/santa/pkg

go 1.26
