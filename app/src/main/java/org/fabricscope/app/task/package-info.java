/**
 * Background work for the view models, with no toolkit in it: {@link org.fabricscope.app.task.BackgroundTask}
 * and the {@link org.fabricscope.app.task.TaskExecutor} that runs it (the app's thread pool, or
 * {@link org.fabricscope.app.task.CurrentThreadTaskExecutor} in tests). See docs/decisions/0005-view-models-and-fxml.md.
 */
package org.fabricscope.app.task;
