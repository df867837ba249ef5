package httpserver

import "github.com/gin-gonic/gin"

// Unbound is the ErrorHandler of a server oapi-codegen generated whose parameters are all
// strings. Such a wrapper refuses only what gin routes and the handlers have always taken: a
// path segment left empty (/api/lists//share, with id "") and a repeated query or header value
// (the handler reads the first). Refusing them would put the wrapper's 400 ahead of the
// sign-in's 401 and the handler's own answer (the 404 of an id that names nothing), so the
// route's handler is called with the values unbound, from calls (the generated
// openapi_unbound.gen.go's unboundCalls, keyed by method and gin path). A route calls does not
// name gets ParamError.
func Unbound(calls map[string]gin.HandlerFunc) func(c *gin.Context, err error, status int) {
	return func(c *gin.Context, err error, status int) {
		if call, ok := calls[c.Request.Method+" "+c.FullPath()]; ok {
			call(c)
			return
		}
		ParamError(c, err, status)
	}
}

// Query is a required query parameter's first value, for unboundCalls.
func Query[T ~string](c *gin.Context, name string) T { return T(c.Query(name)) }

// OptionalQuery is an optional query parameter's first value, nil when the request has none.
func OptionalQuery[T ~string](c *gin.Context, name string) *T {
	v, ok := c.GetQuery(name)
	if !ok {
		return nil
	}
	t := T(v)
	return &t
}

// Header is a required header parameter's first value, for unboundCalls.
func Header[T ~string](c *gin.Context, name string) T { return T(c.GetHeader(name)) }

// OptionalHeader is an optional header parameter's first value, nil when the request has none.
func OptionalHeader[T ~string](c *gin.Context, name string) *T {
	v := c.Request.Header.Values(name)
	if len(v) == 0 {
		return nil
	}
	t := T(v[0])
	return &t
}
