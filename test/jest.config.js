// System tests start real processes from the built dist/ folders (`npm test` builds them first).
module.exports = require('../jest.preset.js')(__dirname, { testTimeout: 180000 });
