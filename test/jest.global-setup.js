// The processes the system tests start run the runnable output npm start and the image run
// (deploy/build-runnable.mjs into .runnable/), built afresh before every run: a test never runs
// output older than the source, nor tsc's dist/ folders. It takes well under a second.
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

module.exports = function buildRunnableOutput() {
  execFileSync(process.execPath, [join(__dirname, '../deploy/build-runnable.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
};
