import { config } from 'zod/mini';
import { en } from 'zod/locales';

// zod/mini carries no messages of its own: an issue without our words would read "Invalid
// input". The forms that show the shared schemas' messages (the site form) import this, so they
// say what the BFF says for the same input (its classic zod loads the same English).
config(en());
