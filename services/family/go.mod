module github.com/santa-wishlist/santa/services/family

go 1.26.0
