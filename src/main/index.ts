// `npm start`: the server on its embedded defaults, overridable by SERVICE_* variables.

import { runServer } from './run.js';

void runServer();
