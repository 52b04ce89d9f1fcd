import { createContext } from 'react';

/**
 * True while the page's status banner already says the data service is failing and from when
 * the data on screen is: panels then do not repeat it in notes of their own (one line on a
 * phone, not three boxes). Provided by the root layout.
 */
export const OutageShown = createContext(false);
