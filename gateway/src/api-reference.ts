import { dirname, join } from 'node:path';
import { Router, type RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * The API reference page: Swagger UI, served from the swagger-ui-dist package, rendering
 * the gateway's own OpenAPI document. Nothing comes from another host, so it works offline
 * and under a content security policy that allows this origin alone.
 */

export const API_REFERENCE_PATH = '/api/docs';

const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

// The page needs no more of the package: its other pages load the Swagger petstore from the internet.
const ASSETS = new Set(['swagger-ui.css', 'index.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']);
// The package changes only with a release; the browser may keep its files a day.
const ASSET_MAX_AGE_MS = 24 * 60 * 60 * 1000;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Ledger Query API reference</title>
    <link rel="stylesheet" href="${API_REFERENCE_PATH}/swagger-ui.css" />
    <link rel="stylesheet" href="${API_REFERENCE_PATH}/index.css" />
    <link rel="icon" type="image/png" href="${API_REFERENCE_PATH}/favicon-32x32.png" sizes="32x32" />
    <link rel="icon" type="image/png" href="${API_REFERENCE_PATH}/favicon-16x16.png" sizes="16x16" />
  </head>
  <body>
    <div id="api-reference"></div>
    <script src="${API_REFERENCE_PATH}/swagger-ui-bundle.js"></script>
    <script src="${API_REFERENCE_PATH}/reference.js"></script>
  </body>
</html>
`;

// A script of its own rather than an inline one, which the content security policy refuses.
// validatorUrl: null keeps Swagger UI from sending the document to validator.swagger.io.
const START_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#api-reference',
    deepLinking: true,
    displayOperationId: true,
    filter: true,
    validatorUrl: null,
  });
});
`;

// The headers of an HTML document, which API answers go without. Swagger UI draws SVG
// icons from data: URLs; everything else comes from this origin.
const pageSecurityHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      baseUri: ["'none'"],
      formAction: ["'none'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
});

const sendAsset: RequestHandler = (req, res, next) => {
  const asset = String(req.params.asset);
  if (!ASSETS.has(asset)) return next();
  res.sendFile(join(SWAGGER_UI_DIR, asset), { maxAge: ASSET_MAX_AGE_MS });
};

/** `/api/docs` and its files; `/docs` leads there. */
export function apiReference(): Router {
  const router = Router({ caseSensitive: true });
  router.get('/docs', (_req, res) => res.redirect(302, API_REFERENCE_PATH));
  router.use(API_REFERENCE_PATH, pageSecurityHeaders);
  router.get(API_REFERENCE_PATH, (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('html').send(PAGE);
  });
  router.get(`${API_REFERENCE_PATH}/reference.js`, (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('text/javascript').send(START_SCRIPT);
  });
  router.get(`${API_REFERENCE_PATH}/:asset`, sendAsset);
  return router;
}
