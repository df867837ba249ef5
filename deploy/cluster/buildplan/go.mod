module github.com/santa-wishlist/santa/deploy/cluster/buildplan

go 1.26.0
