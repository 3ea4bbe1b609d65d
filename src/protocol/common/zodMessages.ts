// zod/mini carries no error messages of its own (every issue would read "Invalid input"); this
// installs the English ones (what the classic API installs on its own), from which the messages
// people read are built. Every module that defines schemas imports it, directly or through a
// module it imports, so the messages are in place before the first parse.
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());
