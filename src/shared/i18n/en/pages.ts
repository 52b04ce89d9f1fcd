/** Page titles and whole-page messages (issue 34): the overview's title, not found, a failed route. */
export const enPages = {
  overview: 'Overview',
  overviewOf: 'Overview: {{tiers}}',
  panelMoved: 'What moved',
  overviewHeading: 'Global risk overview',
  notFound: 'Page not found',
  noPageAt: 'There is no page at',
  backToOverview: 'Back to the overview',
  wentWrong: 'Something went wrong',
  couldNotShow: 'This page could not be shown',
  unknownError: 'Unknown error',
  reload: 'Reload the page',
  goToOverview: 'Go to the overview',
} as const;
