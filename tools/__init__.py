"""Tools of the repository that are not installed with the application: the pictures of the
window for the guide (``make screenshot``) and of the road map (``make pictures``)."""
