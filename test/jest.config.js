// System tests start real processes from the runnable output (.runnable/), which the global setup builds before every run.
module.exports = require('../jest.preset.js')(__dirname, { testTimeout: 180000, globalSetup: '<rootDir>/jest.global-setup.js' });
