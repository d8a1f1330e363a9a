// Renders the API reference from the document this deployment serves (see /api/v1/docs).
window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: "/api/v1/openapi.json",
    dom_id: "#reference",
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    persistAuthorization: false,
  });
});
