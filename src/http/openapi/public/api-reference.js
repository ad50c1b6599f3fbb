// Swagger UI over this server's own OpenAPI document; "Try it out" calls the same origin with the key given under Authorize.
window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#api", deepLinking: true, persistAuthorization: false });
